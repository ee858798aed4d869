package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;

import org.agrona.concurrent.SystemNanoClock;
import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.Put;
import org.jspin.nic.fabric.Fabric;
import org.jspin.settings.Settings;

/**
 * The {@link Nic} every backend shares: a {@link ProtocolCore} (matching, the eager/rendezvous
 * protocol, flow control and completion) over the backend's {@link DataPath}, run by a
 * {@link CoreDriver} (the rank's progress thread, or a caller waiting on a request, one at a
 * time). Every call becomes a command the driver hands to the core, so callers on any thread
 * never touch the core's state, which needs no locks.
 *
 * @param <S> the data path's state per send
 * @param <R> the data path's state per receive
 */
public final class ProtocolEngine<S, R> implements Nic {
    private final String backend;
    private final Fabric fabric;
    private final NicConfig config;
    private final Meters meters;
    private final ProtocolCore<S, R> core;
    private final CoreDriver<S, R> driver;

    /**
     * Starts a rank's NIC over {@code fabric}: its core, on the system clock, and its progress thread.
     *
     * @throws MpiException ERR_ARG if the chunk size exceeds what the fabric carries
     */
    public ProtocolEngine(String backend, Fabric fabric, DataPath<S, R> path, NicConfig config, Meters meters) {
        this(backend, fabric, path, config, meters, Runtime.getRuntime().availableProcessors() == 1);
    }

    /** As the public constructor, saying whether the rank has one CPU rather than asking the runtime. */
    ProtocolEngine(String backend, Fabric fabric, DataPath<S, R> path, NicConfig config, Meters meters,
                   boolean oneCpu) {
        ProgressSettings progress = ProgressSettings.from(Settings.current()); // a malformed one fails before anything starts
        this.core = new ProtocolCore<>(fabric, path, config, meters, SystemNanoClock.INSTANCE);
        this.backend = backend;
        this.fabric = fabric;
        this.config = config.over(fabric);
        this.meters = meters;
        this.driver = new CoreDriver<>(core, fabric, oneCpu, progress);
        driver.start();
    }

    /** @return the tags every meter of this NIC carries (rank, backend) */
    public Tags tags() {
        return meters.tags();
    }

    @Override
    public int rank() {
        return fabric.rank();
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public NicConfig config() {
        return config;
    }

    // the operations are made here, on the caller's thread, so that what they work out once per
    // message (signature hash, layout) is not done by the thread driving the core

    @Override
    public void post(MatchEntry entry) {
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> core.startReceive(op));
    }

    @Override
    public void put(Put put) {
        SendOp<S> op = new SendOp<>(put);
        submit(() -> core.startSend(op));
    }

    @Override
    public void cancel(MatchEntry entry) {
        submit(() -> core.cancel(entry));
    }

    @Override
    public void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener) {
        submit(() -> core.probe(peer, match, ignore, take, wait, listener));
    }

    @Override
    public void receiveMatched(MatchedMessage message, MatchEntry entry) {
        Unexpected u = ProtocolCore.taken(message);
        RecvOp<R> op = new RecvOp<>(entry);
        submit(() -> core.receiveMatched(op, u));
    }

    private void submit(Runnable command) {
        driver.submit(command);
    }

    @Override
    public boolean progress() {
        return driver.doWork() > 0;
    }

    @Override
    public void beginWait() {
        driver.beginWait();
    }

    @Override
    public void endWait() {
        driver.endWait();
    }

    @Override
    public void parking() {
        driver.parking();
    }

    @Override
    public void block(long nanos) {
        driver.block(nanos);
    }

    @Override
    public long spinNanos() {
        return driver.spinNanos();
    }

    @Override
    public boolean accessible(MemorySegment segment) {
        return segment.isAccessibleBy(driver.thread());
    }

    @Override
    public String summary() {
        StringBuilder s = new StringBuilder();
        String rank = Integer.toString(rank());
        for (Meter m : meters.registry().getMeters()) {
            Meter.Id id = m.getId();
            if (id.getName().startsWith("jspin.") && rank.equals(id.getTag("rank"))) {
                double v = m.measure().iterator().next().getValue();
                s.append(String.format("%-34s %,.0f%n", id.getName(), v));
            }
        }
        return s.toString();
    }

    @Override
    public void close() {
        driver.close();
    }
}
