package org.jspin.nic.sim;

import org.jspin.datatype.Datatype;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.timing.SendClock;
import org.jspin.nic.sim.timing.SendTimeline;
import org.jspin.nic.sim.work.MessageTiming;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * One message of a type and count through two fresh NICs of a configuration, as {@link OneMessage} runs
 * it ({@code jspin sim}'s chunk), with both sides timed: the receiver's {@link MessageTiming} and the
 * sender's {@link SendTimeline}. What a projection asks of a sPIN NIC for a message.
 *
 * @param send     the sender NIC's work ({@code strategy} "host" when the CPU packs)
 * @param receive  the receiver NIC's work ({@code timing} null when the CPU unpacks)
 * @param sendTime the sender's outbound handlers on the clock (no packet when the CPU packs)
 */
public record TimedMessage(MessageWork send, MessageWork receive, SendTimeline sendTime) {
    /**
     * Sends {@code count} elements of the committed {@code type} through two NICs of {@code config}.
     *
     * @throws MpiException as {@link OneMessage#run(SimNic, SimNic, Datatype, long, int, boolean)}
     */
    public static TimedMessage of(Datatype type, long count, SimConfig config) {
        SendClock clock = new SendClock(config);
        OneMessage.Result r = OneMessage.run(new SimNic(config, clock), new SimNic(config, WorkListener.NONE), type,
                count, OneMessage.DEFAULT_CHUNK, false);
        return new TimedMessage(r.send(), r.receive(), clock.timeline());
    }

    /** @return whether outbound handlers gathered the message (false: the CPU packed it) */
    public boolean sendOffloaded() {
        return sendTime.packets() > 0;
    }

    /** @return whether inbound handlers scattered the message (false: the CPU unpacked it) */
    public boolean receiveOffloaded() {
        return receive.timing != null;
    }
}
