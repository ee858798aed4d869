package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.Comparator;
import java.util.List;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.jspin.datatype.Datatype;
import org.jspin.nic.NicConfig;
import org.jspin.nic.events.PackEvent;
import org.jspin.nic.events.UnpackEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host backend's flight-recorder events: one per kernel call, on the rank that made it,
 * together covering the message once; and none unless a recording asks for them (a recording with
 * the JDK's default settings, as {@code -XX:StartFlightRecording} makes, has none).
 */
class DataPathEventsTest {
    private static final int CHUNK = 64 << 10;
    /** 50,000 doubles at a stride of two: 400,000 B packed, rendezvous in 64 KiB chunks. */
    private static final Datatype COLUMN = Datatype.vector(50_000, 1, 2, Datatype.DOUBLE).commit();

    @TempDir
    Path dir;

    private static void exchange() {
        MpiOptions o = MpiOptions.defaults().withNic(NicConfig.DEFAULT.withChunkSize(CHUNK));
        LocalRanks.run(2, o, 60, mpi -> {
            Comm w = mpi.world();
            double[] a = new double[100_000];
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(a), 1, COLUMN, 1, 0);
                w.send(MemorySegment.ofArray(a), 50_000, Datatype.DOUBLE, 1, 1); // contiguous: nothing packed
            } else {
                w.recv(MemorySegment.ofArray(a), 1, COLUMN, 0, 0);
                w.recv(MemorySegment.ofArray(a), 50_000, Datatype.DOUBLE, 0, 1);
            }
        });
    }

    /** @param enable whether to ask for the events (else the JDK's default settings, as a plain recording has) */
    private List<RecordedEvent> record(boolean enable) throws IOException, ParseException {
        Path file = dir.resolve("events-" + enable + ".jfr");
        try (Recording r = enable ? new Recording() : new Recording(Configuration.getConfiguration("default"))) {
            if (enable) {
                r.enable(PackEvent.class);
                r.enable(UnpackEvent.class);
            }
            r.start();
            exchange();
            r.stop();
            r.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("jspin."))
                .sorted(Comparator.comparingLong(e -> e.getLong("offset")))
                .toList();
    }

    /** Asserts that the events are {@code rank}'s and cover the column once, chunk by chunk, in order of offset. */
    private static void coverOnce(List<RecordedEvent> events, int rank) {
        long at = 0;
        for (RecordedEvent e : events) {
            assertEquals(rank, e.getInt("rank"), e.toString());
            assertEquals(at, e.getLong("offset"), "chunks cover the message without gap or overlap");
            assertTrue(e.getLong("bytes") > 0 && e.getLong("bytes") <= CHUNK, e.toString());
            assertTrue(e.getLong("clock") > 0, "a monotonic clock reading");
            at += e.getLong("bytes");
        }
        assertEquals(400_000, at, "the column, once");
    }

    @Test
    void eachPackAndUnpackIsAnEventOfTheRankThatDidIt() throws IOException, ParseException {
        List<RecordedEvent> events = record(true);
        List<RecordedEvent> packs = events.stream().filter(e -> e.getEventType().getName().equals("jspin.Pack")).toList();
        List<RecordedEvent> unpacks = events.stream().filter(e -> e.getEventType().getName().equals("jspin.Unpack"))
                .toList();
        assertEquals(events.size(), packs.size() + unpacks.size());
        assertTrue(packs.size() >= 400_000 / CHUNK, "at least one per chunk: " + packs.size());
        coverOnce(packs, 0);
        coverOnce(unpacks, 1);
    }

    @Test
    void aRecordingWithTheDefaultSettingsHasNone() throws IOException, ParseException {
        assertEquals(List.of(), record(false));
    }
}
