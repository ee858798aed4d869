package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The launcher's flags its ranks get: its own, but not those the environment gives them again. */
class RankJobJvmFlagsTest {
    private static final List<String> INPUT = List.of("-Xmx1g", "-Djspin.x=1",
            "-XX:StartFlightRecording:filename=/tmp/r%p.jfr", "-javaagent:/opt/prof.jar", "-agentlib:jdwp=transport=dt_socket");

    @Test
    void flagsFromJavaToolOptionsAndAgentsAreLeftToTheEnvironment() {
        assertEquals(List.of("-Xmx1g", "-Djspin.x=1"),
                RankJob.jvmFlags(INPUT, "  -XX:StartFlightRecording:filename=/tmp/r%p.jfr   -javaagent:/opt/prof.jar "));
    }

    @Test
    void withoutJavaToolOptionsEveryFlagButTheAgentsGoesOn() {
        List<String> want = List.of("-Xmx1g", "-Djspin.x=1", "-XX:StartFlightRecording:filename=/tmp/r%p.jfr");
        assertEquals(want, RankJob.jvmFlags(INPUT, null));
        assertEquals(want, RankJob.jvmFlags(INPUT, " "));
    }

    @Test
    void aFlagRepeatedInJavaToolOptionsIsNoError() {
        assertEquals(List.of("-Xmx1g"), RankJob.jvmFlags(List.of("-Xmx1g", "-Dx=1"), "-Dx=1 -Dx=1"));
    }
}
