package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.jspin.bench.anchors.AnchorResults;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The anchors' script as a child process, with stand-in scripts. */
class AnchorsScriptTest {
    @TempDir
    Path dir;

    private AnchorsScript script(String body, Duration timeout) throws IOException {
        Path s = dir.resolve("run.sh");
        Files.writeString(s, "#!/usr/bin/env bash\n" + body);
        return new AnchorsScript(s, timeout);
    }

    @Test
    void itsResultLinesAreReadWithItsArgument() throws Exception {
        AnchorsScript s = script("echo \"RESULT ompi-tcp lat_$1 3.5 us\"\necho 'RESULT mpich-tcp lat_1B 4 us' >&2\n",
                Duration.ofMinutes(1));
        AnchorResults r = s.run("pingpong", List.of("ompi-tcp", "mpich-tcp"));
        assertEquals(3.5, r.value("ompi-tcp", "lat_pingpong").orElseThrow());
        assertEquals(4.0, r.value("mpich-tcp", "lat_1B").orElseThrow(), "standard error is read too");
    }

    @Test
    void aMissingLabelIsAnErrorWithTheExitCodeAndTheLastTenLines() throws Exception {
        AnchorsScript s = script("for i in $(seq 1 12); do echo line$i; done\necho 'RESULT ompi-tcp lat_1B 3 us'\n"
                + "exit 2\n", Duration.ofMinutes(1));
        MpiException e = assertThrows(MpiException.class, () -> s.run("pingpong", List.of("ompi-tcp", "mpich-tcp")));
        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("pingpong printed no figures for [mpich-tcp] (exit code 2)"), e.getMessage());
        assertTrue(e.getMessage().contains("line12") && e.getMessage().contains("line4"), e.getMessage());
        assertTrue(!e.getMessage().contains("line3\n"), "only the last ten: " + e.getMessage());
    }

    @Test
    void aScriptThatRunsTooLongIsStopped() throws Exception {
        Path pid = dir.resolve("pid");
        AnchorsScript s = script("echo $$ > " + pid + "\nsleep 60\n", Duration.ofSeconds(1));
        MpiException e = assertThrows(MpiException.class, () -> s.run("pack", List.of()));
        assertTrue(e.getMessage().endsWith("pack ran longer than 1 seconds and was stopped"), e.getMessage());
        long id = Long.parseLong(Files.readString(pid).trim());
        ProcessHandle.of(id).ifPresent(h -> h.onExit().join());
        assertTrue(ProcessHandle.of(id).map(h -> !h.isAlive()).orElse(true), "the script is gone");
    }

    @Test
    void timeoutsAreNamedInMinutesWhenWhole() {
        assertEquals("10 minutes", AnchorsScript.span(AnchorsScript.TIMEOUT));
        assertEquals("90 seconds", AnchorsScript.span(Duration.ofSeconds(90)));
    }

    @Test
    void theTailStartsOnANewLineAndSaysWhenNothingWasPrinted() {
        assertEquals(List.of("", "(nothing)"), AnchorsScript.tail(List.of()));
        List<String> many = IntStream.range(0, 15).mapToObj(i -> "l" + i).toList();
        assertEquals(11, AnchorsScript.tail(many).size());
        assertEquals("l5", AnchorsScript.tail(many).get(1));
    }
}
