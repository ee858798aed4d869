package org.jspin.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProcessGroupsTest {
    private static final boolean UTIL_LINUX =
            Files.isExecutable(Path.of("/usr/bin/setsid")) && Files.isExecutable(Path.of("/usr/bin/kill"));

    @Test
    void findsProgramsByPathAndOnThePath() {
        assertTrue(ProcessGroups.resolvable("sh"));
        assertTrue(ProcessGroups.resolvable("/bin/sh"));
        assertFalse(ProcessGroups.resolvable("/nonexistent/jspin-rank"));
        assertFalse(ProcessGroups.resolvable("jspin-no-such-program"));
    }

    @Test
    void aProgramThatCannotBeFoundIsNotWrapped() {
        List<String> cmd = List.of("/nonexistent/jspin-rank", "x");
        assertEquals(cmd, ProcessGroups.inOwnGroup(cmd));
    }

    @Test
    void aRankLeadsAGroupWhoseOrphansASignalStillReaches() throws Exception {
        Assumptions.assumeTrue(UTIL_LINUX, "needs util-linux's setsid and kill");
        List<String> cmd = ProcessGroups.inOwnGroup(List.of("sh", "-c", "sleep 60 & echo $!"));
        assertEquals(List.of("/usr/bin/setsid", "sh", "-c", "sleep 60 & echo $!"), cmd);
        Process leader = new ProcessBuilder(cmd).start();
        long orphan = Long.parseLong(new BufferedReader(new InputStreamReader(leader.getInputStream(),
                StandardCharsets.US_ASCII)).readLine().trim());
        try {
            assertTrue(leader.waitFor(10, TimeUnit.SECONDS), "the leader exits at once, leaving its child");
            assertTrue(ProcessHandle.of(orphan).map(Processes::running).orElse(false), "the orphan runs");
            ProcessGroups.signal(leader.pid(), "KILL");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcessHandle.of(orphan).map(Processes::running).orElse(false) && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertFalse(ProcessHandle.of(orphan).map(Processes::running).orElse(false), "the group's orphan was killed");
        } finally {
            ProcessHandle.of(orphan).ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
