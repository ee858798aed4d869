package org.jspin.nic.sim.strategy;

/**
 * One segment per HPU, made when an HPU first handles a packet of the message: the handler state of
 * {@code hpu-local}, {@code ro-cp} and {@code seek}.
 */
final class HpuSegments {
    private final MessageShape shape;
    private final NicSegment[] segments;

    HpuSegments(MessageShape shape, int hpus) {
        this.shape = shape;
        this.segments = new NicSegment[hpus];
    }

    /** @return HPU {@code hpu}'s segment (at the message's start when new) */
    NicSegment of(int hpu) {
        NicSegment s = segments[hpu];
        if (s == null) {
            s = new NicSegment(shape);
            segments[hpu] = s;
        }
        return s;
    }

    /** @return NIC bytes of {@code hpus} segments over {@code shape} */
    static long bytes(MessageShape shape, int hpus) {
        return hpus * NicSegment.stateBytes(shape.depth());
    }
}
