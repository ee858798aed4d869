package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.junit.jupiter.api.Test;

/** The clock charges outbound handlers only, each on the HPU it ran on, as {@link SendTimeline} would. */
class SendClockTest {
    @Test
    void chargesOutboundHandlersOnly() {
        SendClock clock = new SendClock(SimConfig.DEFAULT.withHpus(2));
        HandlerWork w = new HandlerWork();
        clock.handled(HandlerKind.OUTBOUND, 0, 0, 0, 2048, w);
        clock.handled(HandlerKind.PAYLOAD, 0, 1, 0, 2048, w);
        clock.handled(HandlerKind.COMPLETION, -1, 0, 0, 0, w);
        clock.handled(HandlerKind.OUTBOUND, 1, 1, 2048, 2048, w);
        assertEquals(2, clock.timeline().packets());
        // as SendTimelineTest's first two packets on two HPUs: 26,000 ps of handler, then the link
        assertEquals(189_840, clock.timeline().lastBytePs());
        assertEquals(26_000, clock.timeline().delayPs());
    }
}
