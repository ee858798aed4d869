package org.jspin.nic.fabric.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/** The in-JVM fabric on its own: order, release back to the sender, back-pressure, departures. */
class LocalFabricTest {
    /** Records what a poll delivers. */
    private static final class Recorder implements PacketHandler {
        final List<Packet> arrived = new ArrayList<>();
        final List<Packet> released = new ArrayList<>();
        final List<Integer> failed = new ArrayList<>();

        @Override
        public void onPacket(Packet p) {
            arrived.add(p);
        }

        @Override
        public void onReleased(Packet p) {
            released.add(p);
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            failed.add(rank);
        }
    }

    private static Packet packet(int target, long seq) {
        Packet p = new Packet();
        p.clear();
        p.kind = PacketKind.EAGER;
        p.target = target;
        p.sendId = seq;
        return p;
    }

    @Test
    void packetsArriveInOrderAndReturnToTheirSender() {
        Job job = new Job("t", 2);
        LocalFabricProvider provider = new LocalFabricProvider();
        Fabric a = provider.open(job, 0);
        Fabric b = provider.open(job, 1);
        AtomicInteger wakes = new AtomicInteger();
        b.onActivity(wakes::incrementAndGet);
        for (int i = 0; i < 100; i++) {
            assertTrue(a.send(packet(1, i)));
        }
        assertTrue(b.hasPending());
        assertEquals(100, wakes.get(), "every arrival wakes the receiver");
        Recorder rb = new Recorder();
        assertEquals(64, b.poll(rb, 64), "poll honours its limit");
        b.poll(rb, 64);
        for (int i = 0; i < 100; i++) {
            assertEquals(i, rb.arrived.get(i).sendId, "sender order kept");
            assertEquals(0, rb.arrived.get(i).source, "the fabric stamps the source");
            b.release(rb.arrived.get(i));
        }
        Recorder ra = new Recorder();
        a.poll(ra, 1000);
        assertEquals(100, ra.released.size());
        assertSame(rb.arrived.get(0), ra.released.get(0), "the sender gets its own packet back");
    }

    @Test
    void aFullLinkRefusesInsteadOfBlocking() {
        Job job = new Job("t", 2);
        LocalFabricProvider provider = new LocalFabricProvider();
        Fabric a = provider.open(job, 0);
        provider.open(job, 1);
        int sent = 0;
        while (a.send(packet(1, sent))) {
            sent++;
            assertTrue(sent <= LocalFabricProvider.INBOUND_CAPACITY, "the inbound queue is bounded");
        }
        assertEquals(LocalFabricProvider.INBOUND_CAPACITY, sent);
    }

    @Test
    void aDepartedRankIsReportedToPeersAndRefusesPackets() {
        Job job = new Job("t", 3);
        LocalFabricProvider provider = new LocalFabricProvider();
        Fabric a = provider.open(job, 0);
        Fabric b = provider.open(job, 1);
        b.close();
        Recorder ra = new Recorder();
        a.poll(ra, 10);
        assertEquals(List.of(1), ra.failed);
        MpiException e = assertThrows(MpiException.class, () -> a.send(packet(1, 0)));
        assertEquals(ErrorClass.ERR_PROC_FAILED, e.errorClass());
        Fabric late = provider.open(job, 2);
        Recorder rl = new Recorder();
        late.poll(rl, 10);
        assertEquals(List.of(1), rl.failed, "a rank attaching later learns of the departure too");
        assertThrows(MpiException.class, () -> late.send(packet(1, 0)));
    }

    @Test
    void badRanksAreRefused() {
        Job job = new Job("t", 2);
        LocalFabricProvider provider = new LocalFabricProvider();
        Fabric a = provider.open(job, 0);
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> provider.open(job, 0)).errorClass());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> provider.open(job, 2)).errorClass());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> a.send(packet(5, 0))).errorClass());
        assertFalse(a.send(packet(1, 0)), "a rank not attached yet: retry later");
    }
}
