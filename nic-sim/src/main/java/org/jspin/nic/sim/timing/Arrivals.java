package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;

/**
 * The link and the matching unit, for one received message. The sender's NIC puts the packets on the
 * link at line rate from time 0; a packet has arrived when its last byte has, after the link latency
 * and any delay the link has taken (back-pressure, NACK round trips). Matching takes {@code
 * match-first} for the first packet and {@code match-next} for each later one, one at a time.
 */
final class Arrivals {
    private final double psPerBit;
    private final long linkLatencyPs;
    private final long matchFirstPs;
    private final long matchNextPs;
    private long bytesSent;
    private long linkDelay;
    private long matchFree;
    private boolean matched;
    private long wastedBytes;
    private long nacks;

    Arrivals(TimingConfig t) {
        this.psPerBit = 1000.0 / t.get(TimingParam.LINE_RATE);
        this.linkLatencyPs = Math.round(t.get(TimingParam.LINK_LATENCY) * 1000);
        this.matchFirstPs = Math.round(t.get(TimingParam.MATCH_FIRST) * 1000);
        this.matchNextPs = Math.round(t.get(TimingParam.MATCH_NEXT) * 1000);
    }

    /** @return when the next packet, of {@code bytes}, has arrived whole (unless the link is held) */
    long send(long bytes) {
        bytesSent += bytes;
        return linkLatencyPs + linkDelay + Math.round(bytesSent * 8 * psPerBit);
    }

    /** A transmission of {@code bytes} that reached no handler: it took the link's time all the same. */
    void wasted(long bytes) {
        bytesSent += bytes;
        wastedBytes += bytes;
    }

    /** Everything on the link from here on comes {@code ps} later. */
    void hold(long ps) {
        linkDelay += ps;
    }

    /** Lost packets were asked for again: everything after waits a link round trip. */
    void nack() {
        hold(2 * linkLatencyPs);
        nacks++;
    }

    /** @return when the packet that arrived at {@code arrival} has been matched (packets are matched in arrival order) */
    long match(long arrival) {
        long ready = Math.max(arrival, matchFree) + (matched ? matchNextPs : matchFirstPs);
        matchFree = ready;
        matched = true;
        return ready;
    }

    /** @return NACK round trips waited */
    long nacks() {
        return nacks;
    }

    /** @return bytes of transmissions that reached no handler */
    long wastedBytes() {
        return wastedBytes;
    }
}
