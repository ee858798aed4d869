package org.jspin.transport.shm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;

/** Two ranks' ring files in one directory, for the tests of a fabric's parts without a fabric. */
final class RingRig implements AutoCloseable {
    static final int CAPACITY = 1 << 16;
    static final String JOB = "job-rig";
    static final String SECRET = "0123456789abcdef0123456789abcdef";

    final RingFile[] rings = new RingFile[2];
    /** Each rank's ring as a writer sees it. */
    final ManyToOneRingBuffer[] boxes = new ManyToOneRingBuffer[2];

    RingRig(Path dir) {
        for (int r = 0; r < 2; r++) {
            rings[r] = RingFile.create(dir, r, 2, CAPACITY);
            boxes[r] = new ManyToOneRingBuffer(rings[r].ring());
        }
    }

    @Override
    public void close() {
        for (RingFile f : rings) {
            f.unlink();
            f.close();
        }
    }

    /** Records what it is told, releasing nothing unless {@link #then} does. */
    static final class Told implements PacketHandler {
        final List<Packet> packets = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        /** Also done with each packet as it is delivered (releasing it, say). */
        Consumer<Packet> then = p -> { };

        @Override
        public void onPacket(Packet p) {
            packets.add(p);
            then.accept(p);
        }

        @Override
        public void onReleased(Packet p) {
            throw new AssertionError("no releases here");
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            failed.add(rank + ": " + reason);
        }
    }
}
