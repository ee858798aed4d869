package org.jspin.replay.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.goal.GoalReader;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.jspin.replay.testkit.FixedCosts;
import org.junit.jupiter.api.Test;

/**
 * Cases worked by hand with LogGOPSim's rules (docs/replay.md), L=100, o=10, g=20, G=2, O=1 and S=1000
 * unless a case says otherwise; a 10-byte message costs o+9*O = 19 on the sender's CPU, g+9*G = 38 on
 * its NIC, arrives at o+L = 110 after it starts and takes o+max(9*O, 9*G) = 28 of the receiver's CPU.
 */
class LogGopsReplayTest {
    private static final LogGopsParameters P = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000);
    private static final LogGopsParameters RENDEZVOUS = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 5);

    static Schedule goal(String text) throws IOException {
        return GoalReader.read("test.goal", new StringReader(text));
    }

    private static long[] finish(String text, LogGopsParameters p) throws IOException {
        ReplayResult r = new LogGopsReplay(goal(text), p, PlainBytes.INSTANCE).run();
        long[] f = new long[r.ranks()];
        for (int i = 0; i < f.length; i++) f[i] = r.finishNs(i);
        return f;
    }

    @Test
    void aPingCostsTheSenderOAndTheReceiverLPlusTwoO() throws IOException {
        String ping = "num_ranks 2\nrank 0 {\nl1: send 10b to 1 tag 0\n}\nrank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        assertArrayEquals(new long[] {19, 138}, finish(ping, P));
    }

    private static final String PING_PONG = """
            num_ranks 2
            rank 0 {
            l1: send 10b to 1 tag 0
            l2: recv 10b from 1 tag 0
            l2 requires l1
            }
            rank 1 {
            l1: recv 10b from 0 tag 0
            l2: send 10b to 0 tag 0
            l2 requires l1
            }
            """;

    @Test
    void anEagerPingPongEndsWhenTheReplyIsReceived() throws IOException {
        // pong leaves rank 1 at 138, arrives at 248 and takes 28 of rank 0's CPU
        assertArrayEquals(new long[] {276, 157}, finish(PING_PONG, P));
    }

    @Test
    void aRendezvousSendCompletesWhenItsReceiveMatches() throws IOException {
        // the pong's sender is held until rank 0 matches it at 248
        assertArrayEquals(new long[] {276, 248}, finish(PING_PONG, RENDEZVOUS));
    }

    @Test
    void irequiresLetsComputationOverlapARendezvousSend() throws IOException {
        String body = "num_ranks 2\nrank 0 {\nl1: send 10b to 1 tag 0\nl2: calc 100\nl2 %s l1\n}\n"
                + "rank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        // requires: the calc waits for the match at 110; irequires: it starts once the send's o is paid, at 19
        assertEquals(210, finish(body.formatted("requires"), RENDEZVOUS)[0]);
        assertEquals(119, finish(body.formatted("irequires"), RENDEZVOUS)[0]);
    }

    @Test
    void aRingOfEagerMessagesFinishesTogether() throws IOException {
        StringBuilder ring = new StringBuilder("num_ranks 4\n");
        for (int r = 0; r < 4; r++) {
            ring.append("rank ").append(r).append(" {\nl1: send 10b to ").append((r + 1) % 4).append(" tag 3\n")
                    .append("l2: recv 10b from ").append((r + 3) % 4).append(" tag 3\nl2 requires l1\n}\n");
        }
        assertArrayEquals(new long[] {138, 138, 138, 138}, finish(ring.toString(), P));
    }

    @Test
    void aTreeWaitsForTheRootsNicGapBetweenItsTwoSends() throws IOException {
        String tree = """
                num_ranks 4
                rank 0 {
                l1: send 10b to 1 tag 0
                l2: send 10b to 2 tag 0
                }
                rank 1 {
                l1: recv 10b from 0 tag 0
                l2: send 10b to 3 tag 0
                l2 requires l1
                }
                rank 2 {
                l1: recv 10b from 0 tag 0
                }
                rank 3 {
                l1: recv 10b from 1 tag 0
                }
                """;
        // the second send waits for g+9G = 38 of the NIC; rank 1 forwards at 138
        assertArrayEquals(new long[] {57, 157, 176, 276}, finish(tree, P));
    }

    @Test
    void calcOnTheCpuDelaysTheSendAfterIt() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nl1: calc 500\nl2: send 10b to 1 tag 0\nl2 requires l1\n}\n"
                + "rank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        assertArrayEquals(new long[] {519, 638}, finish(s, P));
    }

    @Test
    void gSpacesSendsAndReceivesOfOneByteMessages() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nsend 1b to 1 tag 0\nsend 1b to 1 tag 1\n}\n"
                + "rank 1 {\nrecv 1b from 0 tag 0\nrecv 1b from 0 tag 1\n}\n";
        // second send at g = 20 (o = 10 already over); second arrival at 130 waits for the receive gap at 130
        assertArrayEquals(new long[] {30, 140}, finish(s, P));
    }

    @Test
    void manyMessagesToOneRankQueueOnItsReceiveGap() throws IOException {
        StringBuilder s = new StringBuilder("num_ranks 4\nrank 0 {\n");
        s.append("recv 1b from -1 tag 0\n".repeat(3)).append("}\n");
        for (int r = 1; r < 4; r++) s.append("rank ").append(r).append(" {\nsend 1b to 0 tag 0\n}\n");
        // all three arrive at 110; rank 0 takes them at 110, 130 and 150 (g = 20), each costing o = 10
        assertArrayEquals(new long[] {160, 10, 10, 10}, finish(s.toString(), P));
    }

    @Test
    void anySourceAndAnyTagTakeAnUnexpectedMessage() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nsend 10b to 1 tag 7\n}\n"
                + "rank 1 {\nl1: calc 1000\nl2: recv 10b from -1 tag -1\nl2 requires l1\n}\n";
        // the message is unexpected at 110 (CPU busy computing until 1000), taken at 1000+28
        assertArrayEquals(new long[] {19, 1028}, finish(s, P));
    }

    @Test
    void aReceiveNoSendMatchesIsADeadlockNamingRankAndLabel() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nwait: recv 8b from 1 tag 4\n}\nrank 1 {\ncalc 5\n}\n";
        Schedule schedule = goal(s);
        MpiException e = assertThrows(MpiException.class,
                () -> new LogGopsReplay(schedule, P, PlainBytes.INSTANCE).run());
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("rank 0's recv wait (line 3) from rank 1 tag 4 is never matched"),
                e.getMessage());
    }

    @Test
    void aMessageNoReceiveTakesIsReportedToo() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 4\n}\nrank 1 {\nl1: recv 8b from 0 tag 5\n}\n";
        MpiException e = assertThrows(MpiException.class,
                () -> new LogGopsReplay(goal(s), P, PlainBytes.INSTANCE).run());
        assertTrue(e.getMessage().contains("rank 0's send l1 (line 3) to rank 1 tag 4 is never received"), e.getMessage());
    }

    @Test
    void aNicsDatatypeCostsPackOnTheSenderAndUnpackAfterTheNicOnTheReceiver() {
        ScheduleBuilder b = new ScheduleBuilder("typed", 2);
        MessageType vector = new MessageType("{\"vector\":1}", 5, false);
        b.beginRank(0, 1);
        b.datatype(b.send(1, 0, 10, 0, 0, null, 1), vector, 2);
        b.beginRank(1, 2);
        b.datatype(b.recv(0, 0, 10, 0, 0, null, 2), vector, 2);
        Schedule s = b.build();
        MessageCosts costs = new FixedCosts("test", 7, 3, 5, 11);
        ReplayResult r = new LogGopsReplay(s, P, costs).run();
        // send: CPU 7+10+9 = 26; first byte leaves after pack, o and the NIC's 3: arrives at 120;
        // LogGOPS's receive is over at 148, the NIC's 5 put the data in place at 153, unpack ends at 164
        assertEquals(26, r.finishNs(0));
        assertEquals(164, r.finishNs(1));
        assertEquals(7, r.cpuPackNs(0));
        assertEquals(11, r.cpuPackNs(1));
        assertEquals(3, r.nicNs(0));
        assertEquals(5, r.nicNs(1));
        assertEquals("test", r.nic());
        ReplayResult plain = new LogGopsReplay(s, P, PlainBytes.INSTANCE).run();
        assertEquals(19, plain.finishNs(0));
        assertEquals(138, plain.finishNs(1));
    }

    @Test
    void aHostsPackAndUnpackReplayAsTheCalcsTheGoalExportWrites() throws IOException {
        // rank 0 starts a typed isend, posts a typed receive beside it and computes once both are done;
        // rank 1 answers what it received: replayed with CPU costs, or as the GOAL LogGOPSim would read
        ScheduleBuilder b = new ScheduleBuilder("typed", 2);
        MessageType vector = new MessageType("{\"vector\":1}", 5, false);
        b.beginRank(0, 1);
        int isend = b.send(1, 0, 10, 0, 0, "a", 1);
        b.datatype(isend, vector, 2);
        int irecv = b.recv(1, 1, 10, 0, 0, "b", 2);
        b.datatype(irecv, vector, 2);
        b.irequires(irecv, isend, 2);
        int calc = b.calc(50, 0, "c", 3);
        b.requires(calc, isend, 3);
        b.requires(calc, irecv, 3);
        b.beginRank(1, 4);
        int recv = b.recv(0, 0, 10, 0, 0, "d", 4);
        b.datatype(recv, vector, 2);
        int send = b.send(0, 1, 10, 0, 0, "e", 5);
        b.datatype(send, vector, 2);
        b.requires(send, recv, 5);
        Schedule s = b.build();
        MessageCosts host = FixedCosts.hostPacking(30, 40);
        ReplayResult typed = new LogGopsReplay(s, P, host).run();
        String goal = exported(s, host);
        ReplayResult exported = new LogGopsReplay(goal(goal), P, PlainBytes.INSTANCE).run();
        for (int r = 0; r < 2; r++) {
            assertEquals(exported.finishNs(r), typed.finishNs(r), "rank " + r + "\n" + goal);
            assertEquals(70, typed.cpuPackNs(r), "one pack and one unpack on rank " + r);
        }
        assertEquals(50, typed.computeNs(0), "the pack is not compute");
        assertTrue(typed.finishNs(0) > new LogGopsReplay(s, P, PlainBytes.INSTANCE).run().finishNs(0) + 70);
    }

    @Test
    void aSecondSendPacksWhileTheNicStillSpacesTheFirst() throws IOException {
        // two typed 1000 B messages in a row: the second's pack is CPU work, done while the NIC's gap
        // after the first (g + 999 G = 2018 ns) still runs, as the exported GOAL's calc is
        ScheduleBuilder b = new ScheduleBuilder("typed", 2);
        MessageType vector = new MessageType("{\"vector\":1}", 5, false);
        b.beginRank(0, 1);
        int first = b.send(1, 0, 1000, 0, 0, "a", 1);
        b.datatype(first, vector, 200);
        int second = b.send(1, 0, 1000, 0, 0, "b", 2);
        b.datatype(second, vector, 200);
        b.requires(second, first, 2);
        b.beginRank(1, 3);
        int one = b.recv(0, 0, 1000, 0, 0, "c", 3);
        b.datatype(one, vector, 200);
        int two = b.recv(0, 0, 1000, 0, 0, "d", 4);
        b.datatype(two, vector, 200);
        b.requires(two, one, 4);
        Schedule s = b.build();
        MessageCosts host = FixedCosts.hostPacking(30, 0);
        String goal = exported(s, host);
        ReplayResult exported = new LogGopsReplay(goal(goal), P, PlainBytes.INSTANCE).run();
        ReplayResult typed = new LogGopsReplay(s, P, host).run();
        assertEquals(exported.finishNs(1), typed.finishNs(1), goal);
        // the first leaves at 30 + o = 40; the NIC is free again at 30 + 2018 = 2048, when the second
        // (packed from 1039 to 1069) goes: it arrives at 2048 + 10 + 100 = 2158, when the receiver's gap
        // after the first (140 + 2018) ends too, and is received with o and the longer of 999 O and 999 G
        assertEquals(2158 + 10 + 1998, typed.finishNs(1));
    }

    @Test
    void waitIsTheTimeTheCpuWasIdleBeforeItsFinish() throws IOException {
        String s = "num_ranks 2\nrank 0 {\nl1: calc 500\nl2: send 10b to 1 tag 0\nl2 requires l1\n}\n"
                + "rank 1 {\nl1: recv 10b from 0 tag 0\n}\n";
        ReplayResult r = new LogGopsReplay(goal(s), P, PlainBytes.INSTANCE).run();
        assertEquals(500, r.computeNs(0));
        assertEquals(0, r.waitNs(0));
        assertEquals(638 - 28, r.waitNs(1));
        assertEquals(638, r.finishNs());
    }

    /** @return {@code s} as {@code jspin project --goal} writes it for {@code costs}: the packs as calcs */
    private static String exported(Schedule s, MessageCosts costs) throws IOException {
        java.io.StringWriter goal = new java.io.StringWriter();
        org.jspin.replay.goal.GoalWriter.write(org.jspin.replay.schedule.PackAsCalc.apply(s, costs), goal);
        return goal.toString();
    }
}
