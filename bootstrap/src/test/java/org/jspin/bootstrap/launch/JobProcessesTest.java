package org.jspin.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link JobProcesses} over processes started here, without a launcher. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobProcessesTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @Test
    void copiesEachRanksOutputPrefixedAndClosesItsInput() throws Exception {
        JobProcesses job = new JobProcesses(2, err, Duration.ofSeconds(1));
        for (int r = 0; r < 2; r++) {
            job.started(r, new ProcessBuilder("sh", "-c", "cat; echo out" + r + "; echo err" + r + " >&2").start(), out, err);
        }
        for (int r = 0; r < 2; r++) {
            assertTrue(job.process(r).waitFor(20, TimeUnit.SECONDS), "cat saw the end of its input");
        }
        job.drain();
        String o = outBytes.toString(StandardCharsets.UTF_8);
        String e = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("[0] out0\n") && o.contains("[1] out1\n"), o);
        assertTrue(e.contains("[0] err0\n") && e.contains("[1] err1\n"), e);
        assertEquals(List.of(), job.aliveRanks());
    }

    @Test
    void stopEndsTheRanksAndTheDescendantsItSampled() throws Exception {
        JobProcesses job = new JobProcesses(2, err, Duration.ofMillis(500));
        assertNull(job.process(1), "not started yet");
        Process rank = new ProcessBuilder("sh", "-c", "sleep 60 & echo $!; wait").start();
        job.started(0, rank, out, err);
        job.started(1, new ProcessBuilder("sleep", "60").start(), out, err);
        long child = awaitPrintedPid();
        assertEquals(List.of(0, 1), job.aliveRanks());
        job.sampleDescendants();
        job.stop();
        assertEquals(List.of(), job.aliveRanks());
        ProcessHandle.of(child).ifPresent(h -> assertFalse(Processes.running(h), "the rank's child " + child + " runs on"));
        assertEquals("", errBytes.toString(StandardCharsets.UTF_8), "nothing survived");
        job.stop(); // again: nothing left to do
    }

    private long awaitPrintedPid() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < until) {
            String o = outBytes.toString(StandardCharsets.UTF_8);
            if (o.startsWith("[0] ") && o.contains("\n")) {
                return Long.parseLong(o.substring(4, o.indexOf('\n')).trim());
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the rank did not print its child's pid");
    }

    @Test
    void onlyProcessesBelowARankCountAsItsDescendants() throws Exception {
        Process rank = new ProcessBuilder("sh", "-c", "sleep 30 & echo $!; wait").start();
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            long child = Long.parseLong(new BufferedReader(new InputStreamReader(rank.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine().trim());
            ProcessHandle grandchild = ProcessHandle.of(child).orElseThrow();
            assertTrue(JobProcesses.underRank(grandchild, Set.of(rank.pid())));
            assertFalse(JobProcesses.underRank(other.toHandle(), Set.of(rank.pid())), "a sibling of the rank");
            assertFalse(JobProcesses.underRank(grandchild, Set.of(other.pid())), "below another process");
        } finally {
            rank.descendants().forEach(ProcessHandle::destroyForcibly);
            rank.destroyForcibly();
            other.destroyForcibly();
        }
    }
}
