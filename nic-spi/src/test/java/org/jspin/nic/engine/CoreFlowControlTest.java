package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Test;

/** The packet pool running out and the fabric refusing packets: everything still completes, in order. */
class CoreFlowControlTest {
    /** The smallest pool: 8 packets, 4 of them kept for control traffic. */
    private static final NicConfig TINY = new NicConfig(64, 256, 2 * NicConfig.CONTROL_RESERVE, true);

    /** Sends {@code eager} small and {@code large} rendezvous messages each way, half of the receives posted late. */
    private static void exchange(CoreRig rig, int eager, int large, Runnable eachStep) {
        List<Req> recvs = new ArrayList<>();
        List<byte[]> bufs = new ArrayList<>();
        List<byte[]> expected = new ArrayList<>();
        List<Req> sends = new ArrayList<>();
        int n = eager + large;
        for (int from = 0; from < 2; from++) {
            int to = 1 - from;
            for (int i = 0; i < n; i++) {
                byte[] data = bytes(i < eager ? 1 + i : 2000 + i, 100 * from + i);
                expected.add(data);
                bufs.add(new byte[2000 + n]); // any message fits any receive: they pair by order
                if (i % 2 == 0) {
                    recvs.add(rig.recv(to, from, 1, bufs.getLast())); // same tag: they must match in order
                } else {
                    recvs.add(null);
                }
                sends.add(rig.send(from, to, 1, data));
            }
        }
        while (rig.step() > 0) {
            eachStep.run();
        }
        for (int k = 0; k < recvs.size(); k++) {
            if (recvs.get(k) == null) {
                int to = 1 - k / n;
                int from = k / n;
                recvs.set(k, rig.recv(to, from, 1, bufs.get(k)));
            }
        }
        // a receive posted late may take an eager message copied aside, or a waiting RTS
        rig.run();
        for (int k = 0; k < recvs.size(); k++) {
            assertNull(sends.get(k).error(), "send " + k);
        }
        for (int k = 0; k < recvs.size(); k++) {
            assertNull(recvs.get(k).error(), "receive " + k);
        }
        // late receives were posted after the early ones, so with one tag the pairing is by posting order
        checkContents(recvs, bufs, expected, n);
        for (int r = 0; r < 2; r++) {
            assertEquals(0, rig.meter("jspin.packets.in.flight", r), "rank " + r + "'s pool is whole again");
            assertFalse(rig.core(r).hasPendingWork());
        }
    }

    /** Receives posted early took the first messages of their sender; late ones the rest, in order. */
    private static void checkContents(List<Req> recvs, List<byte[]> bufs, List<byte[]> expected, int n) {
        for (int from = 0; from < 2; from++) {
            List<Integer> postedOrder = new ArrayList<>();
            for (int i = 0; i < n; i += 2) {
                postedOrder.add(from * n + i);
            }
            for (int i = 1; i < n; i += 2) {
                postedOrder.add(from * n + i);
            }
            for (int m = 0; m < n; m++) {
                int receive = postedOrder.get(m);
                byte[] message = expected.get(from * n + m);
                assertEquals(message.length, recvs.get(receive).event().messageBytes(), "message " + m + " from " + from);
                assertArrayEquals(message, java.util.Arrays.copyOf(bufs.get(receive), message.length));
            }
        }
    }

    @Test
    void anExhaustedPoolHoldsSendsBackUntilPacketsReturn() {
        CoreRig rig = new CoreRig(2, TINY);
        int[] most = new int[1];
        exchange(rig, 30, 3, () -> most[0] = (int) Math.max(most[0], rig.meter("jspin.packets.in.flight", 0)));
        assertEquals(TINY.packets(), most[0], "the pool ran out, and never beyond its size");
    }

    @Test
    void dataNeverTakesTheControlReserve() {
        CoreRig rig = new CoreRig(2, TINY);
        rig.recv(1, 0, 1, new byte[4000]);
        Req send = rig.send(0, 1, 1, bytes(4000, 1));
        int most = 0;
        int seen = 0;
        while (rig.step() > 0) {
            int data = 0;
            for (String p : rig.wire.subList(seen, rig.wire.size())) {
                data += p.startsWith("DATA") ? 1 : 0;
            }
            seen = rig.wire.size();
            most = Math.max(most, data);
        }
        assertNull(send.error());
        assertEquals(TINY.packets() - NicConfig.CONTROL_RESERVE, most, "DATA packets in flight at once");
    }

    @Test
    void aFullLinkPutsPacketsInTheBacklogAndOrderHolds() {
        CoreRig rig = new CoreRig(2, TINY);
        rig.fabric(0).linkCapacity(1);
        rig.fabric(1).linkCapacity(2);
        exchange(rig, 20, 2, () -> { });
        assertTrue(rig.fabric(0).refusedSends() > 0, "the link refused packets");
        assertTrue(rig.fabric(1).refusedSends() > 0);
    }

    @Test
    void aLinkThatRefusesEverythingKeepsTheWorkPendingUntilItOpens() {
        CoreRig rig = new CoreRig(2);
        rig.fabric(0).linkCapacity(0);
        byte[] buf = new byte[10];
        Req recv = rig.recv(1, 0, 1, buf);
        Req send = rig.send(0, 1, 1, bytes(10, 1));
        rig.run();
        assertFalse(send.done());
        assertTrue(rig.core(0).hasPendingWork(), "a backlog that no arrival will announce");
        rig.fabric(0).linkCapacity(Integer.MAX_VALUE);
        rig.run();
        assertNull(send.error());
        assertArrayEquals(bytes(10, 1), buf);
        assertNull(recv.error());
        assertFalse(rig.core(0).hasPendingWork());
    }
}
