package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Back-pressure's bookkeeping: bytes held, and when they are let go. */
class PacketBufferTest {
    @Test
    void packetsHoldTheirBytesUntilTheyAreLetGo() {
        PacketBuffer b = new PacketBuffer(4096);
        assertTrue(b.fits(4096));
        assertFalse(b.fits(4097));
        b.take(3000);
        b.take(1000);
        assertEquals(4000, b.held());
        assertTrue(b.fits(96));
        assertFalse(b.fits(97));
        b.releaseAt(500, 3000);
        b.releaseAt(200, 1000);
        b.releaseUntil(199);
        assertEquals(4000, b.held(), "nothing lets go before its time");
        b.releaseUntil(200);
        assertEquals(3000, b.held(), "a holder lets go at its time exactly");
        assertTrue(b.releasing());
        assertEquals(500, b.releaseFirst());
        assertEquals(0, b.held());
        assertFalse(b.releasing());
    }

    @Test
    void aPacketLargerThanTheBufferGoesInAlone() {
        PacketBuffer b = new PacketBuffer(4096);
        assertFalse(b.fits(5000));
        b.take(5000);
        assertEquals(5000, b.held());
        assertFalse(b.fits(0), "nothing fits beside it");
        b.releaseAt(10, 5000);
        b.releaseUntil(Long.MAX_VALUE);
        assertEquals(0, b.held());
        assertTrue(b.fits(4096));
    }
}
