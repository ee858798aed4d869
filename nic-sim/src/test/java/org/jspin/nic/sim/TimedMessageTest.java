package org.jspin.nic.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.SimConfig;
import org.junit.jupiter.api.Test;

/** Both sides of one message on the clock, and the CPU's side when the NIC cannot take it. */
class TimedMessageTest {
    private static final Datatype COLUMN = Datatype.vector(4096, 1, 2, Datatype.DOUBLE).commit(); // 32 KiB

    @Test
    void bothSidesOfAStridedVectorAreTimed() {
        TimedMessage m = TimedMessage.of(COLUMN, 2, SimConfig.DEFAULT);
        assertTrue(m.sendOffloaded());
        assertTrue(m.receiveOffloaded());
        assertEquals(32, m.sendTime().packets(), "64 KiB in 2 KiB packets");
        assertEquals(m.send().outboundHandlers, m.sendTime().packets());
        assertEquals(65_536L * 8 * 5, m.sendTime().lineRatePs());
        assertTrue(m.sendTime().delayPs() > 0, "the first packet waits for its handler and its DMA reads");
        assertNotNull(m.receive().timing);
        assertEquals(65_536, m.receive().timing.bytes());
    }

    @Test
    void theSameMessageTakesTheSameTime() {
        TimedMessage a = TimedMessage.of(COLUMN, 3, SimConfig.DEFAULT);
        TimedMessage b = TimedMessage.of(COLUMN, 3, SimConfig.DEFAULT);
        assertEquals(a.sendTime().lastBytePs(), b.sendTime().lastBytePs());
        assertEquals(a.receive().timing.completionPs(), b.receive().timing.completionPs());
    }

    @Test
    void noNicMemoryLeavesBothSidesToTheCpu() {
        TimedMessage m = TimedMessage.of(COLUMN, 2, SimConfig.DEFAULT.withNicMemory(0));
        assertFalse(m.sendOffloaded());
        assertFalse(m.receiveOffloaded());
        assertNull(m.receive().timing);
        assertEquals("host", m.send().strategy);
        assertEquals(0, m.sendTime().delayPs());
    }
}
