package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import jdk.jfr.Recording;

import org.jspin.nic.events.FrameWriteEvent;
import org.jspin.nic.events.PackEvent;
import org.jspin.nic.events.PayloadReceivedEvent;
import org.jspin.nic.events.UnpackEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jspin timeline} over recordings made here, with events whose clocks the test chooses. */
class TimelineCommandTest {
    @TempDir
    Path dir;

    /** Records what {@code emit} commits into {@code name}. */
    private Path recording(String name, Runnable emit) throws IOException {
        Path file = dir.resolve(name);
        try (Recording r = new Recording()) {
            r.enable(PackEvent.class);
            r.enable(UnpackEvent.class);
            r.enable(FrameWriteEvent.class);
            r.enable(PayloadReceivedEvent.class);
            r.start();
            emit.run();
            r.stop();
            r.dump(file);
        }
        return file;
    }

    private static void pack(int rank, long offset, long bytes, long clock) {
        PackEvent e = new PackEvent();
        e.begin();
        e.commit(rank, offset, bytes, clock);
    }

    private static void write(int source, long offset, long bytes, long clock) {
        FrameWriteEvent e = new FrameWriteEvent();
        e.begin();
        e.source = source;
        e.target = 1 - source;
        e.kind = "DATA";
        e.offset = offset;
        e.payload = bytes;
        e.clock = clock;
        e.commit();
    }

    private static void received(int target, long offset, long bytes, long clock, long sinceHeader) {
        PayloadReceivedEvent e = new PayloadReceivedEvent();
        e.source = 1 - target;
        e.target = target;
        e.kind = "DATA";
        e.offset = offset;
        e.payload = bytes;
        e.landed = true;
        e.sinceHeader = sinceHeader;
        e.clock = clock;
        e.commit();
    }

    private static void unpack(int rank, long offset, long bytes, long clock) {
        UnpackEvent e = new UnpackEvent();
        e.begin();
        e.commit(rank, offset, bytes, clock);
    }

    @Test
    void mergesTheRanksRecordingsByTheirMonotonicClockAndSummarisesEachRank() throws IOException {
        // committed out of clock order, and split over two files as two ranks' JVMs would write them
        Path sender = recording("r0.jfr", () -> {
            write(0, 65536, 65536, 4_000);
            pack(0, 65536, 65536, 3_000);
            write(0, 0, 65536, 2_000);
            pack(0, 0, 65536, 1_000);
        });
        Path receiver = recording("r1.jfr", () -> {
            received(1, 0, 65536, 2_500, 40_000);
            unpack(1, 0, 65536, 3_500);
            received(1, 65536, 65536, 4_500, 30_000);
        });
        InProcess.Run r = run("timeline", "--tail", "6", sender.toString(), receiver.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = Arrays.asList(r.out().split("\n"));
        assertTrue(lines.get(0).startsWith("jspin timeline: 7 data path events in 2 recording(s)"), r.out());
        assertTrue(r.out().contains("     0  Pack                    2        65536"), r.out());
        assertTrue(r.out().contains("     0  FrameWrite              2        65536"), r.out());
        assertTrue(r.out().contains("     1  PayloadReceived         2        65536      40.0      40.0"),
                "the receive's time is the time since its header: " + r.out());
        assertTrue(r.out().contains("     1  Unpack                  1        65536"), r.out());
        int first = lines.indexOf(lines.stream().filter(l -> l.startsWith("the last 6 events")).findFirst().orElseThrow());
        List<String> shown = lines.subList(first + 2, lines.size());
        assertEquals(6, shown.size(), r.out());
        String[] order = {"FrameWrite", "PayloadReceived", "Pack", "Unpack", "FrameWrite", "PayloadReceived"};
        double[] starts = {0.0, 0.5, 1.0, 1.5, 2.0, 2.5}; // us from the first shown (the write at 2,000 ns)
        for (int i = 0; i < order.length; i++) {
            String[] cols = shown.get(i).trim().split("\\s+");
            assertEquals(order[i], cols[3], "in clock order: " + shown.get(i));
            assertEquals(starts[i], Double.parseDouble(cols[0]), 1e-9, shown.get(i));
        }
        assertTrue(shown.get(1).contains("DATA from 0, landed"), shown.get(1));
        assertTrue(shown.get(0).contains("DATA to 1"), shown.get(0));
    }

    @Test
    void recordingsWithoutTheEventsSayHowToTurnThemOn() throws IOException {
        Path empty = recording("empty.jfr", () -> { });
        InProcess.Run r = run("timeline", empty.toString());
        assertEquals(1, r.status());
        assertTrue(r.out().contains("no jspin.* events") && r.out().contains("--help"), r.out());
    }

    @Test
    void aMissingFileOrOneThatIsNoRecordingIsNamed() throws IOException {
        InProcess.Run missing = run("timeline", dir.resolve("nope.jfr").toString());
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("ERR_ARG") && missing.err().contains("nope.jfr"), missing.err());
        Path text = Files.writeString(dir.resolve("text.jfr"), "not a recording");
        InProcess.Run bad = run("timeline", text.toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("text.jfr") && bad.err().contains("not a flight recording"), bad.err());
        InProcess.Run negative = run("timeline", "--tail", "-1", text.toString());
        assertEquals(2, negative.status());
        assertTrue(negative.err().contains("-1"), negative.err());
    }
}
