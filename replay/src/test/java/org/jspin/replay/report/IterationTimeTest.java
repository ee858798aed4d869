package org.jspin.replay.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.engine.ReplayResult;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.jspin.replay.testkit.FixedCosts;
import org.junit.jupiter.api.Test;

/** Iterations between marks, worked by hand (L=100, o=10, g=20, G=2, O=1, S=1000, as LogGopsReplayTest's). */
class IterationTimeTest {
    private static final LogGopsParameters P = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000);

    /** Each rank computes the given times, one per iteration, with a mark before each and after the last. */
    private static Schedule computing(long[]... perRank) {
        ScheduleBuilder b = new ScheduleBuilder("calcs", perRank.length);
        for (int r = 0; r < perRank.length; r++) {
            b.beginRank(r, 1);
            int prev = b.mark(0, null, 1);
            for (long ns : perRank[r]) {
                int calc = b.calc(ns, 0, null, 1);
                b.requires(calc, prev, 1);
                prev = b.mark(0, null, 1);
                b.requires(prev, calc, 1);
            }
        }
        return b.build();
    }

    @Test
    void theSlowestRanksMedianIntervalAndItsPartsAreReported() {
        // rank 0's marks 0, 100, 400, 500 (intervals 100, 300, 100: median 100); rank 1's median 60
        ReplayResult r = new LogGopsReplay(computing(new long[] {100, 300, 100}, new long[] {50, 60, 70}), P,
                PlainBytes.INSTANCE).run();
        assertEquals(4, r.marks(0));
        assertEquals(400, r.markNs(0, 2));
        assertEquals(110, r.markNs(1, 2));
        IterationTime t = IterationTime.of(r);
        assertEquals(3, t.iterations());
        assertEquals(100, t.medianNs());
        assertEquals(500 / 3.0, t.meanNs(), 1e-9);
        assertEquals(100, t.computeNs(), "the first interval's: rank 0's 100 against rank 1's 50");
        assertEquals(0, t.cpuPackNs());
        assertEquals(0, t.nicNs());
    }

    @Test
    void aRankThatComputesMoreIsTheSlowest() {
        // rank 1's intervals 90, 90, 210 (median 90) against rank 0's 10, 20, 30
        IterationTime t = IterationTime.of(new LogGopsReplay(computing(new long[] {10, 20, 30},
                new long[] {90, 90, 210}), P, PlainBytes.INSTANCE).run());
        assertEquals(90, t.medianNs());
        assertEquals(130, t.meanNs(), 1e-9);
        assertEquals(90, t.computeNs());
    }

    @Test
    void ranksOutOfStepStillGivePartsThatFitTheTimeTheySitBeside() {
        // no messages: rank 0 computes 100, 10, 100, 10 and rank 1 10, 100, 10, 100; the job's boundaries
        // (the later rank's marks: 0, 100, 110, 210, 220) would give 10 us intervals holding 100 us of compute
        IterationTime t = IterationTime.of(new LogGopsReplay(computing(new long[] {100, 10, 100, 10},
                new long[] {10, 100, 10, 100}), P, PlainBytes.INSTANCE).run());
        assertEquals(100, t.medianNs(), "the upper median of 10, 10, 100, 100");
        assertEquals(100, t.computeNs());
        assertEquals(55, t.meanNs(), 1e-9);
    }

    @Test
    void aTypedMessagesPackUnpackAndNicTimeFallInTheIterationThatMovesIt() {
        // rank 0: mark, typed send (pack 7, then o + 9 O = 19 on the CPU), mark at 26; rank 1: mark, its
        // receive, in place at 153 after the NIC's 5 and unpacked by 164 (as in LogGopsReplayTest); the marks
        // survive the host's pack and unpack becoming calcs
        ScheduleBuilder b = new ScheduleBuilder("typed", 2);
        MessageType vector = new MessageType("{\"vector\":1}", 5, false);
        b.beginRank(0, 1);
        int m0 = b.mark(0, null, 1);
        int send = b.send(1, 0, 10, 0, 0, null, 1);
        b.datatype(send, vector, 2);
        b.requires(send, m0, 1);
        b.requires(b.mark(0, null, 1), send, 1);
        b.beginRank(1, 2);
        int m1 = b.mark(0, null, 2);
        int recv = b.recv(0, 0, 10, 0, 0, null, 2);
        b.datatype(recv, vector, 2);
        b.requires(recv, m1, 2);
        b.requires(b.mark(0, null, 2), recv, 2);
        ReplayResult r = new LogGopsReplay(b.build(), P, new FixedCosts("test", 7, 3, 5, 11)).run();
        assertEquals(26, r.markNs(0, 1));
        assertEquals(164, r.markNs(1, 1));
        IterationTime t = IterationTime.of(r);
        assertEquals(new IterationTime("test", 1, 164, 164.0, 0, 11, 5), t);
    }

    @Test
    void ranksWithDifferentMarksOrNoneHaveNoTimePerIteration() {
        ReplayResult uneven = new LogGopsReplay(computing(new long[] {10, 20}, new long[] {10}), P,
                PlainBytes.INSTANCE).run();
        assertFalse(IterationTime.marked(uneven));
        MpiException e = assertThrows(MpiException.class, () -> IterationTime.of(uneven));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("rank 0 3, rank 1 2"), e.getMessage());
        assertFalse(IterationTime.marked(new LogGopsReplay(computing(new long[] {}, new long[] {}), P,
                PlainBytes.INSTANCE).run()), "one mark each is no iteration");
    }
}
