package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jspin bench anchors} with a stand-in for the anchors' script (the real one builds and runs
 * MPICH and Open MPI for a minute or more): the rounds run jspin's real two-process ping-pong, and the
 * report sets its figures against what the script printed.
 */
class BenchAnchorsCommandTest {
    @TempDir
    Path dir;

    private Path script(String body) throws IOException {
        Path s = dir.resolve("run.sh");
        Files.writeString(s, "#!/usr/bin/env bash\n" + body);
        return s;
    }

    @Test
    void eachRoundRunsTheAnchorsThenJspinAndTheReportSetsThemSideBySide() throws IOException {
        Path calls = dir.resolve("calls");
        Path s = script("echo \"$1\" >> " + calls + "\n"
                + "echo 'some compiler chatter'\n"
                + "echo 'RESULT ompi-tcp lat_1B 1000000 us'\n"
                + "echo 'RESULT mpich-tcp lat_1B 2000000 us'\n");
        InProcess.Run r = run("bench", "anchors", "--anchors", s.toString(), "--rounds", "2", "--bind-to", "none",
                "--filter", "latency_1B", "--scale", "0.01");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of("pingpong", "pingpong"), Files.readAllLines(calls), "the anchors' ping-pong, once a round");
        assertTrue(r.out().contains("2 interleaved round(s)"), r.out());
        String kernels = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).trim();
        assertTrue(r.out().contains("the anchors' sockets run the kernel's default (" + kernels + "); jspin's"
                + " connections within this host run reno"), "which congestion control each side ran: " + r.out());
        String row = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("| latency_1B ")).findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        List<String> cells = Arrays.stream(row.split("\\|")).map(String::trim).filter(c -> !c.isEmpty()).toList();
        // case, unit, jspin unbound, Open MPI, MPICH, vs Open MPI unbound, vs MPICH unbound
        assertEquals(7, cells.size(), row);
        assertEquals("us", cells.get(1));
        double ours = Double.parseDouble(cells.get(2));
        assertTrue(ours > 0 && ours < 1_000_000, row);
        assertEquals("1000000.00", cells.get(3));
        assertEquals("2000000.00", cells.get(4));
        double vsOpenMpi = Double.parseDouble(cells.get(5));
        double vsMpich = Double.parseDouble(cells.get(6));
        assertTrue(vsOpenMpi > 1, "a second per one-way trip is slower than jspin: " + row);
        assertEquals(2 * vsOpenMpi, vsMpich, 0.02 * vsMpich, row);
        assertTrue(r.out().contains("latency p99 > 5 x p50, unbound: "), r.out());
        assertTrue(r.out().contains("latency_1B (lat_1B): 1000000.00 1000000.00"), r.out());
        assertTrue(r.err().contains("round 2 of 2: jspin, unbound"), "progress goes to standard error: " + r.err());
        assertFalse(r.out().contains("By the machine's state"), "Open MPI is bound: no unbound comparison by state");
    }

    @Test
    void boundRoundsAreAlsoComparedStateByState() throws IOException {
        Path s = script("echo 'RESULT ompi-tcp lat_1B 1000000 us'\necho 'RESULT mpich-tcp lat_1B 2000000 us'\n");
        InProcess.Run r = run("bench", "anchors", "--anchors", s.toString(), "--rounds", "1", "--bind-to", "core",
                "--filter", "latency_1B", "--scale", "0.01");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("By the machine's state"), r.out());
        String row = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("| latency_1B ")).skip(1).findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        List<String> cells = Arrays.stream(row.split("\\|")).map(String::trim).filter(c -> !c.isEmpty()).toList();
        // case, unit, then jspin, Open MPI and their ratio near, and the same far
        assertEquals(8, cells.size(), row);
        assertTrue(cells.get(2).endsWith("(1)") || cells.get(5).endsWith("(1)"), "jspin's one launch is in a state: " + row);
        assertFalse(cells.get(3).endsWith("(1)") && cells.get(6).endsWith("(1)"), "the anchors' run is in one state at most: " + row);
        assertTrue(r.out().contains("the anchors' probes per round, before / after their run (ns): "), r.out());
        assertTrue(r.out().contains("The floor (bench tcpfloor: the same cases over a bare socket"), r.out());
        String floor = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("    latency_1B: ")).findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        double overFloor = Double.parseDouble(floor.substring(floor.indexOf("median ") + 7).trim());
        assertTrue(overFloor > 0 && overFloor < 100, "jspin's latency over the floor's, measured: " + floor);
    }

    @Test
    void packRoundsSetJspinsFractionOfItsCopyAgainstTheBetterMpisOfItsMemcpy() throws IOException {
        Path s = script("[ \"$1\" = pack ] || exit 3\n"
                + "echo 'RESULT openmpi contig4MiB memcpy 1000'\n"
                + "echo 'RESULT openmpi vec_blk512 pack_double 1'\n"
                + "echo 'RESULT mpich contig4MiB memcpy 1000'\n"
                + "echo 'RESULT mpich vec_blk512 pack_double 2'\n"
                + "echo 'RESULT mpich vec_blk512 unpack_double 2'\n");
        InProcess.Run r = run("bench", "anchors", "pack", "--anchors", s.toString(), "--rounds", "1", "--filter",
                "vector_d_512B");
        assertEquals(0, r.status(), r.err());
        List<String> rows = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("| vector_d_512B ")).toList();
        assertEquals(2, rows.size(), r.out());
        List<String> pack = Arrays.stream(rows.get(0).split("\\|")).map(String::trim).filter(c -> !c.isEmpty()).toList();
        assertEquals("pack", pack.get(1));
        double fraction = Double.parseDouble(pack.get(2));
        assertTrue(fraction > 0.01 && fraction < 10, rows.get(0));
        assertEquals("0.00", pack.get(3), "the better MPI packed at 2 of 1000: " + rows.get(0));
        assertTrue(Double.parseDouble(pack.get(4)) > 5, "far ahead of 0.002: " + rows.get(0));
        assertEquals("2.00", pack.get(7), "the faster MPI's GB/s: " + rows.get(0));
        assertEquals("1.00", pack.get(8), "one round spreads nothing: " + rows.get(0));
        assertEquals("1.00", pack.get(9), "nor does its copy: " + rows.get(0));
        assertEquals("Open MPI 1.00, MPICH 1.00", pack.get(11), "each MPI's own spread: " + rows.get(0));
        assertTrue(rows.get(1).endsWith("| MPICH 1.00 |"), "Open MPI printed no unpack figure: " + rows.get(1));
        assertEquals(12, pack.size(), "case, op, three figures, the rounds' ratios, two rates, four spreads");
    }

    @Test
    void anchorsThatPrintNoFiguresAreAnErrorNamingThePackagesTheyNeed() throws IOException {
        Path s = script("echo 'mpi.h: No such file or directory'\nexit 1\n");
        InProcess.Run r = run("bench", "anchors", "--anchors", s.toString(), "--rounds", "1");
        assertNotEquals(0, r.status());
        assertTrue(r.err().contains("no figures for [ompi-tcp, mpich-tcp] (exit code 1)"), r.err());
        assertTrue(r.err().contains("libopenmpi-dev and libmpich-dev"), r.err());
        assertTrue(r.err().contains("mpi.h: No such file or directory"), r.err());
        assertTrue(r.out().isEmpty(), "no table from nothing: " + r.out());
    }

    @Test
    void badArgumentsAreNamed() {
        InProcess.Run zero = run("bench", "anchors", "--rounds", "0");
        assertNotEquals(0, zero.status());
        assertTrue(zero.err().contains("--rounds must be at least 1, got 0"), zero.err());
        InProcess.Run missing = run("bench", "anchors", "--anchors", dir.resolve("nope.sh").toString());
        assertNotEquals(0, missing.status());
        assertTrue(missing.err().contains("no anchors' script at " + dir.resolve("nope.sh")), missing.err());
        InProcess.Run what = run("bench", "anchors", "halo");
        assertNotEquals(0, what.status());
        assertTrue(what.err().contains("pingpong or pack, got 'halo'"), what.err());
        InProcess.Run nothing = run("bench", "anchors", "--filter", "latency_2B");
        assertNotEquals(0, nothing.status());
        assertTrue(nothing.err().contains("--filter 'latency_2B' matches none of the cases pingpong compares"),
                nothing.err());
        InProcess.Run noPack = run("bench", "anchors", "pack", "--filter", "struct");
        assertNotEquals(0, noPack.status());
        assertTrue(noPack.err().contains("--filter 'struct' matches none of the cases pack compares"), noPack.err());
        InProcess.Run binding = run("bench", "anchors", "--bind-to", "socket");
        assertNotEquals(0, binding.status());
        assertTrue(binding.err().contains("'socket'"), binding.err());
    }
}
