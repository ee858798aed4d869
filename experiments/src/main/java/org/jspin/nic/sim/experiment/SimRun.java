package org.jspin.nic.sim.experiment;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.OneMessage;
import org.jspin.nic.sim.SimNic;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.strategy.MessageShape;
import org.jspin.nic.sim.timing.HostModel;
import org.jspin.nic.sim.work.MessageWork;
import org.jspin.nic.sim.work.WorkListener;

/**
 * One simulated receive for a sweep, and the figures of merit the sweeps compare: the time until the
 * data is in place in the user's buffer, counted from the first byte on the link (both paths receive
 * the message at line rate; the host path then unpacks it, the NIC path is done when its completion
 * handler is), and the throughput that makes. Counts the NIC packets simulated, for the simulator's
 * own speed.
 */
final class SimRun implements AutoCloseable {
    private final OneMessage.Scratch scratch = new OneMessage.Scratch();
    private long packets;
    private long nanos;

    /** @return the receiver's work for one message of {@code count} × {@code type} */
    MessageWork receive(Datatype type, long count, SimConfig config) {
        long start = System.nanoTime();
        MessageWork w = OneMessage.run(new SimNic(config, WorkListener.NONE), new SimNic(config, WorkListener.NONE), type,
                count, OneMessage.DEFAULT_CHUNK, false, scratch).receive();
        packets += w.packets;
        nanos += System.nanoTime() - start;
        return w;
    }

    @Override
    public void close() {
        scratch.close();
    }

    /** @return wall-clock seconds spent simulating (both NICs of each message), measured */
    double seconds() {
        return nanos / 1e9;
    }

    /** @return NIC packets simulated so far */
    long packets() {
        return packets;
    }

    /** @return ns from the first byte on the link until the NIC path has the data in place */
    static double nicNs(MessageWork w, SimConfig c) {
        return w.timing.completionPs() / 1000.0 - c.timing().get(TimingParam.LINK_LATENCY);
    }

    /** @return ns the link needs for {@code bytes} */
    static double lineNs(long bytes, SimConfig c) {
        return bytes * 8 / c.timing().get(TimingParam.LINE_RATE);
    }

    /** @return ns until the host path has the data in place, when it unpacks in {@code unpackNs} after the last byte */
    static double hostNs(long bytes, double unpackNs, SimConfig c) {
        return lineNs(bytes, c) + unpackNs;
    }

    /** @return the modelled host unpack of one message, in ns */
    static double hostModelNs(Datatype type, long count, SimConfig c) {
        return new HostModel(c.timing()).of(MessageShape.of(type, count)).modelledNs();
    }

    /** @return Gbit/s of {@code bytes} in {@code ns} */
    static double gbps(long bytes, double ns) {
        return ns <= 0 ? 0 : bytes * 8 / ns;
    }
}
