package org.jspin.transport.netty;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;

import org.jspin.nic.fabric.Mailbox;
import org.jspin.nic.fabric.Packet;
import org.junit.jupiter.api.Test;

/** Reading pauses above the high water mark of undelivered arrivals and resumes below a quarter of it. */
class ReadPacingTest {
    private final Mailbox mailbox = new Mailbox(2 * ReadPacing.HIGH_WATER, 16);
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final ReadPacing pacing = new ReadPacing(new PeerLinks(new PeerLink[] {null, new PeerLink(1, channel,
            mailbox)}), mailbox);

    private void arrive(int n) {
        for (int i = 0; i < n; i++) {
            mailbox.arrive(new Packet());
            pacing.arrived();
        }
    }

    private void take(int n) {
        for (int i = 0; i < n; i++) {
            mailbox.takeArrival();
        }
        pacing.delivered();
    }

    @Test
    void readingPausesAboveTheHighWaterMarkAndResumesBelowAQuarter() {
        arrive(ReadPacing.HIGH_WATER);
        assertFalse(pacing.paused(), "at the mark, not above it");
        assertTrue(channel.config().isAutoRead());
        arrive(1);
        assertTrue(pacing.paused());
        assertFalse(channel.config().isAutoRead());
        take(ReadPacing.HIGH_WATER + 1 - ReadPacing.HIGH_WATER / 4);
        assertTrue(pacing.paused(), "a quarter of the mark still waits");
        take(1);
        assertFalse(pacing.paused());
        assertTrue(channel.config().isAutoRead());
    }

    @Test
    void deliveringWhileReadingRunsChangesNothing() {
        arrive(3);
        channel.config().setAutoRead(false); // someone else's choice: pacing only undoes its own pause
        take(3);
        assertFalse(pacing.paused());
        assertFalse(channel.config().isAutoRead());
    }
}
