package org.jspin.replay.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.jspin.error.MpiException;
import org.jspin.replay.PlainBytes;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.junit.jupiter.api.Test;

class MessageCostTableTest {
    private static final MessageType VECTOR = new MessageType("{\"v\":1}", 8, false);

    private static Schedule repeated(int messages) {
        ScheduleBuilder b = new ScheduleBuilder("r", 2);
        b.beginRank(0, 1);
        for (int i = 0; i < messages; i++) b.datatype(b.send(1, 0, 16, 0, 0, null, 1), VECTOR, 2);
        b.calc(3, 0, null, 1);
        b.beginRank(1, 2);
        for (int i = 0; i < messages; i++) b.datatype(b.recv(0, 0, 16, 0, 0, null, 2), VECTOR, 2);
        return b.build();
    }

    private static MessageCosts counting(AtomicInteger asked, long ns) {
        return new MessageCosts() {
            @Override public String nic() { return "c"; }
            @Override public long sendCpuNs(MessageType type, long count) { asked.incrementAndGet(); return ns; }
            @Override public long sendNicNs(MessageType type, long count) { return 2 * ns; }
            @Override public long recvNicNs(MessageType type, long count) { return 3 * ns; }
            @Override public long recvCpuNs(MessageType type, long count) { asked.incrementAndGet(); return 4 * ns; }
        };
    }

    @Test
    void aRepeatedTypeAndCountIsAskedOncePerDirection() {
        AtomicInteger asked = new AtomicInteger();
        MessageCostTable t = MessageCostTable.of(repeated(50), counting(asked, 1));
        assertEquals(2, asked.get());
        assertEquals(1, t.cpu[0]);
        assertEquals(2, t.nic[0]);
        assertEquals(4, t.cpu[51]);
        assertEquals(3, t.nic[51]);
        assertEquals(0, t.cpu[50]);
    }

    @Test
    void noCostAtAllNeedsNoTableAndANegativeCostIsRefused() {
        assertNull(MessageCostTable.of(repeated(3), PlainBytes.INSTANCE));
        MpiException e = assertThrows(MpiException.class, () -> MessageCostTable.of(repeated(1),
                counting(new AtomicInteger(), -1)));
        assertTrue(e.reason().contains("c gives a negative cost (-1 ns CPU, -2 ns NIC) to send 2 of {\"v\":1}"), e.reason());
    }
}
