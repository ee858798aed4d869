package org.jspin.nic.sim.timing;

import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;

/**
 * Decides when, and on which HPU, the handlers of one message's packets run: the one joint between the
 * functional NIC (which runs the handlers: real bytes, counted work) and the timing model. The
 * functional NIC hands each packet over as it arrives and is called back, through {@link Runner}, to
 * run its handler. Two implementations: an untimed one runs each handler at once, in order (the
 * functional runs, e.g. the send side), and {@link TimedScheduler} runs them when the message's
 * {@link ReceiveTimeline} says; keep it at two, so that the calls stay bimorphic.
 */
public interface HandlerScheduler {
    /** Runs a packet's handler: the functional side of the joint. */
    interface Runner {
        /** Runs packet {@code slot}'s handler on {@code hpu}, filling {@code work} (cleared) with what it did. */
        void run(int slot, int hpu, HandlerWork work);
    }

    /**
     * The next packet in arrival order: {@code bytes} of payload, its handler bound to {@code hpu}, or to
     * any HPU (-1) if its strategy does not fix one. Runs it, or waits to, with {@code runner}.
     */
    void arrive(int slot, long bytes, int hpu, Runner runner);

    /** A transmission of {@code bytes} that reached no handler (lost, or a duplicate discarded). */
    void wasted(long bytes);

    /** The NIC asked the sender for lost packets again. */
    void nack();

    /** Runs every handler still waiting (before a chunk's bytes go back to the fabric). */
    void drain(Runner runner);

    /**
     * Every packet has arrived: runs what still waits, then the completion handler's slot in time, and
     * records the message's timing in {@code totals} (an untimed scheduler records none).
     */
    void complete(Runner runner, MessageWork totals);
}
