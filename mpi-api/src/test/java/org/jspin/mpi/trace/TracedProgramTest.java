package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class TracedProgramTest {
    @Test
    void readsTheMainClassAndArgumentsOfTheJvmsCommand() {
        TracedProgram p = TracedProgram.fromCommand("org.example.Ring  --rounds 3 ");
        assertEquals("org.example.Ring", p.program());
        assertEquals(List.of("--rounds", "3"), p.args());
        assertEquals("", TracedProgram.fromCommand(" ").program());
    }

    @Test
    void aNamedProgramIsTheCurrentOne() {
        TracedProgram.name("halo2d", List.of("--size", "64"));
        assertEquals("halo2d", TracedProgram.current().program());
        assertEquals(List.of("--size", "64"), TracedProgram.current().args());
    }
}
