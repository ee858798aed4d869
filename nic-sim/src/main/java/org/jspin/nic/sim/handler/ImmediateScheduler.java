package org.jspin.nic.sim.handler;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.timing.HandlerScheduler;
import org.jspin.nic.sim.work.HandlerWork;
import org.jspin.nic.sim.work.MessageWork;

/**
 * The untimed scheduler of the functional runs (the send side, which a {@code SendClock} may time from
 * outside): each handler runs as soon as its packet is handed over, in that order, on the HPU it is
 * given; nothing waits, the link costs nothing and no timing is recorded.
 */
public final class ImmediateScheduler implements HandlerScheduler {
    private final HandlerWork work = new HandlerWork();

    /** @throws MpiException {@code ERR_ARG} if {@code hpu} is negative: without a clock nothing chooses one */
    @Override
    public void arrive(int slot, long bytes, int hpu, Runner runner) {
        if (hpu < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "an untimed handler runs on the HPU it is given, got " + hpu);
        }
        work.clear();
        runner.run(slot, hpu, work);
    }

    @Override
    public void wasted(long bytes) {
        // no clock: a lost transmission costs nothing
    }

    @Override
    public void nack() {
        // no clock: a resend costs nothing
    }

    @Override
    public void drain(Runner runner) {
        // every handler ran when its packet arrived
    }

    @Override
    public void complete(Runner runner, MessageWork totals) {
        // every handler ran when its packet arrived, and there is no timing to record
    }
}
