package org.jspin.nic.sim.timing;

import org.jspin.datatype.flat.RegionIterator;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.jspin.nic.sim.strategy.MessageShape;

/**
 * The host path's main-memory traffic, and its modelled unpack time, at cache-line grain.
 *
 * <p>Traffic, for a received message of b bytes: the NIC writes the staging buffer (b rounded up to
 * lines), the CPU reads it back, and writes the destination: a line the type map covers whole is
 * written, a line it covers in part is read for ownership first and written (so twice). The NIC path
 * instead writes each destination line once, but a DMA write that covers part of a line costs a
 * read-modify-write ({@link #nicTraffic}).
 *
 * <p>Time (a model, labelled so wherever it is shown): the traffic at {@code host-bandwidth}, plus
 * {@code host-region} per contiguous region of the type map.
 */
public final class HostModel {
    private final long line;
    private final double bytesPerNs;
    private final double regionNs;

    public HostModel(TimingConfig t) {
        this.line = (long) t.get(TimingParam.CACHE_LINE);
        this.bytesPerNs = t.get(TimingParam.HOST_BANDWIDTH);
        this.regionNs = t.get(TimingParam.HOST_REGION);
    }

    /** What the host path costs one message: main-memory traffic, contiguous regions, modelled time. */
    public record Host(long trafficBytes, long regions, double modelledNs) {
    }

    /** @return the host path's traffic, regions and modelled unpack time for {@code shape} */
    public Host of(MessageShape shape) {
        Lines l = lines(shape);
        long traffic = 2 * staging(shape) + l.full * line + l.partial * 2 * line;
        return new Host(traffic, l.regions, traffic / bytesPerNs + l.regions * regionNs);
    }

    /**
     * The send's side of the host path: the CPU reads each line of the type map once (whole or in part)
     * and writes the staging buffer, which the NIC reads.
     *
     * @return the host path's traffic, regions and modelled pack time for {@code shape}
     */
    public Host pack(MessageShape shape) {
        Lines l = lines(shape);
        long traffic = 2 * staging(shape) + (l.full + l.partial) * line;
        return new Host(traffic, l.regions, traffic / bytesPerNs + l.regions * regionNs);
    }

    /** The staging buffer: the packed bytes rounded up to lines. */
    private long staging(MessageShape shape) {
        return (shape.bytes() + line - 1) / line * line;
    }

    /** Lines of the type map covered whole and in part (a part-line regions share counted once), and its regions. */
    private record Lines(long full, long partial, long regions) {
    }

    private Lines lines(MessageShape shape) {
        long full = 0;
        long partial = 0;
        long regions = 0;
        long lastPartial = Long.MIN_VALUE;
        RegionIterator it = shape.compiled().regions(shape.count());
        while (it.advance()) {
            regions++;
            long first = it.offset();
            long end = first + it.length();
            long firstLine = Math.floorDiv(first, line);
            long lastLine = Math.floorDiv(end - 1, line);
            boolean headCut = Math.floorMod(first, line) != 0;
            boolean tailCut = Math.floorMod(end, line) != 0;
            long lines = lastLine - firstLine + 1;
            long p = 0;
            if (headCut || (firstLine == lastLine && tailCut)) {
                if (firstLine != lastPartial) {
                    p++;
                }
                lines--;
                lastPartial = firstLine;
            }
            if (lastLine != firstLine && tailCut) {
                p++;
                lines--;
                lastPartial = lastLine;
            }
            partial += p;
            full += Math.max(0, lines);
        }
        return new Lines(full, partial, regions);
    }

    /** @return the NIC path's traffic: lines written whole once, part-lines read and written */
    public long nicTraffic(long fullLines, long partialLines) {
        return fullLines * line + partialLines * 2 * line;
    }
}
