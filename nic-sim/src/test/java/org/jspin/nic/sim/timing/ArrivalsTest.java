package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jspin.nic.sim.config.TimingConfig;
import org.junit.jupiter.api.Test;

/**
 * The link and matching on the paper's preset: 200 Gbit/s is 5 ps a bit (a 2 KiB packet every
 * 81,920 ps), a link latency of 100,000 ps, matching 100,000 ps for the first packet, 10,000 for the next.
 */
class ArrivalsTest {
    @Test
    void packetsArriveAtLineRateAfterTheLatencyAndAreMatchedOneAtATime() {
        Arrivals a = new Arrivals(TimingConfig.PAPER);
        long first = a.send(2048);
        assertEquals(100_000 + 81_920, first);
        assertEquals(181_920 + 100_000, a.match(first), "match-first");
        long second = a.send(2048);
        assertEquals(100_000 + 163_840, second);
        assertEquals(281_920 + 10_000, a.match(second), "waits for the matching unit, then match-next");
        long late = 400_000;
        assertEquals(late + 10_000, a.match(late), "a free matching unit starts at the arrival");
    }

    @Test
    void wastedBytesHeldLinksAndNacksDelayWhatFollows() {
        Arrivals a = new Arrivals(TimingConfig.PAPER);
        a.wasted(1000);
        assertEquals(1000, a.wastedBytes());
        assertEquals(100_000 + 3048 * 40, a.send(2048), "the wasted bytes took the link's time");
        a.hold(5_000);
        assertEquals(105_000 + 4048 * 40, a.send(1000));
        a.nack();
        assertEquals(1, a.nacks());
        assertEquals(105_000 + 200_000 + 4058 * 40, a.send(10), "a NACK costs a link round trip");
    }
}
