package org.jspin.bench.pingpong;

/**
 * A case's figures for each state of the machine ({@link CoreStates}): the round trips measured
 * after a near probe and after a far one.
 *
 * @param nearShare      fraction of the case's round trips (or windows) measured in near blocks
 * @param p50NearMicros  median one-way time (a streaming case: window time) in near blocks; 0 if none
 * @param p50FarMicros   the same in far blocks; 0 if none
 * @param probeNearNanos median probe of the near blocks (a cache line's round trip between the
 *                       ranks' cores); 0 if none
 * @param probeFarNanos  median probe of the far blocks; 0 if none
 */
public record CoreSplit(double nearShare, double p50NearMicros, double p50FarMicros, double probeNearNanos,
                        double probeFarNanos) {
    /** No probes taken (a result from before the probes, or made by hand). */
    public static final CoreSplit NONE = new CoreSplit(0, 0, 0, 0, 0);

    /** @return whether any block was probed */
    public boolean probed() {
        return probeNearNanos > 0 || probeFarNanos > 0;
    }
}
