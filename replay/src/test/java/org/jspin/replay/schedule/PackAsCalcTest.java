package org.jspin.replay.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.StringWriter;

import org.jspin.replay.PlainBytes;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.engine.LogGopsParameters;
import org.jspin.replay.engine.LogGopsReplay;
import org.jspin.replay.goal.GoalWriter;
import org.junit.jupiter.api.Test;

class PackAsCalcTest {
    private static final MessageType VECTOR = new MessageType("{}", 8, false);
    private static final MessageCosts HOST = new MessageCosts() {
        @Override public String nic() { return "host"; }
        @Override public long sendCpuNs(MessageType type, long count) { return 7 * count; }
        @Override public long sendNicNs(MessageType type, long count) { return 0; }
        @Override public long recvNicNs(MessageType type, long count) { return 0; }
        @Override public long recvCpuNs(MessageType type, long count) { return 11 * count; }
    };

    private static Schedule typedPingPong() {
        ScheduleBuilder b = new ScheduleBuilder("pp", 2);
        b.beginRank(0, 1);
        int c = b.calc(100, 0, null, 1);
        int s = b.send(1, 0, 16, 0, 0, null, 2);
        b.datatype(s, VECTOR, 2);
        int r = b.recv(1, 0, 16, 0, 0, null, 3);
        b.datatype(r, VECTOR, 2);
        int w = b.calc(5, 0, null, 4);
        b.requires(s, c, 2);
        b.requires(r, s, 3);
        b.requires(w, r, 4);
        b.beginRank(1, 5);
        int r1 = b.recv(0, 0, 16, 0, 0, null, 6);
        b.datatype(r1, VECTOR, 2);
        int s1 = b.send(0, 0, 16, 0, 0, null, 7);
        b.datatype(s1, VECTOR, 2);
        b.requires(s1, r1, 7);
        return b.build();
    }

    @Test
    void packsBecomeCalcsBeforeSendsAndUnpacksCalcsAfterReceives() throws IOException {
        StringWriter out = new StringWriter();
        GoalWriter.write(PackAsCalc.apply(typedPingPong(), HOST), out);
        assertEquals("""
                num_ranks 2

                rank 0 {
                l0: calc 100
                l1: calc 14
                l2: send 16b to 1 tag 0
                l3: recv 16b from 1 tag 0
                l4: calc 22
                l5: calc 5
                l1 requires l0
                l2 requires l1
                l3 requires l2
                l4 requires l3
                l5 requires l4
                }

                rank 1 {
                l0: recv 16b from 0 tag 0
                l1: calc 22
                l2: calc 14
                l3: send 16b to 0 tag 0
                l1 requires l0
                l2 requires l1
                l3 requires l2
                }
                """, out.toString());
    }

    @Test
    void asGoalItReplaysAsTheHostsCostsDoWhenTheNicAddsNothing() {
        Schedule s = typedPingPong();
        LogGopsParameters p = LogGopsParameters.ofNanos(100, 10, 20, 2, 1, 1000);
        var direct = new LogGopsReplay(s, p, HOST).run();
        var asCalc = new LogGopsReplay(PackAsCalc.apply(s, HOST), p, PlainBytes.INSTANCE).run();
        assertEquals(direct.finishNs(0), asCalc.finishNs(0));
        assertEquals(direct.finishNs(1), asCalc.finishNs(1));
        assertSame(s, PackAsCalc.apply(s, PlainBytes.INSTANCE));
    }
}
