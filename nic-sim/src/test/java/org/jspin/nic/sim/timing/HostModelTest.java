package org.jspin.nic.sim.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.nic.sim.strategy.MessageShape;
import org.junit.jupiter.api.Test;

/**
 * The host path's traffic and time worked by hand on the paper's preset: 64 B lines, 12.8 GB/s, 5 ns a
 * region.
 */
class HostModelTest {
    private final HostModel host = new HostModel(TimingConfig.PAPER);

    @Test
    void aDoubleEveryOtherLineIsFourPartLines() {
        // 4 doubles 128 B apart: 32 B packed (a 64 B staging line), each double alone in a line
        MessageShape shape = MessageShape.of(Datatype.vector(4, 1, 16, Datatype.DOUBLE).commit(), 1);
        HostModel.Host unpack = host.of(shape);
        // staging written and read (128), each part-line read for ownership and written (4 x 128)
        assertEquals(640, unpack.trafficBytes());
        assertEquals(4, unpack.regions());
        assertEquals(640 / 12.8 + 4 * 5, unpack.modelledNs(), 1e-9);
        HostModel.Host pack = host.pack(shape);
        // each line read once (4 x 64), staging written and read (128)
        assertEquals(384, pack.trafficBytes());
        assertEquals(384 / 12.8 + 4 * 5, pack.modelledNs(), 1e-9);
    }

    @Test
    void wholeLinesCostPackAndUnpackTheSame() {
        // 2 blocks of 128 B, 256 B apart: 4 whole lines, 256 B staged
        MessageShape shape = MessageShape.of(Datatype.vector(2, 16, 32, Datatype.DOUBLE).commit(), 1);
        assertEquals(768, host.of(shape).trafficBytes());
        assertEquals(768, host.pack(shape).trafficBytes());
        assertEquals(768 / 12.8 + 2 * 5, host.pack(shape).modelledNs(), 1e-9);
    }
}
