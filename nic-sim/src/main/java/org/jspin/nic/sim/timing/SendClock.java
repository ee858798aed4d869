package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.work.HandlerKind;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * Times one sent message from the outside: listens to a sender NIC's outbound handlers, in the order
 * they ran (packet order), and charges each on a {@link SendTimeline}. The send side keeps its untimed
 * scheduler, so the runtime's sends pay nothing for a clock only a projection reads.
 */
public final class SendClock implements WorkListener {
    private final SendTimeline timeline;

    /** A clock for one message on a NIC of {@code config}. */
    public SendClock(SimConfig config) {
        this.timeline = new SendTimeline(config.timing(), config.hpus());
    }

    @Override
    public void handled(HandlerKind kind, long packet, int hpu, long offset, int length, HandlerWork work) {
        if (kind == HandlerKind.OUTBOUND) {
            timeline.packet(hpu, length, work);
        }
    }

    /** @return the message's timeline so far */
    public SendTimeline timeline() {
        return timeline;
    }
}
