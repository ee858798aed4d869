package org.jspin.nic.fabric.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;
import org.jspin.nic.fabric.PacketKind;
import org.junit.jupiter.api.Test;

/** The embedded fabric on its own: order, release back to the sender, a test playing a peer, a full link, departures. */
class EmbeddedNetworkTest {
    /** Records what a poll delivers, as "kind source>target #seq", "released #seq", "gone rank". */
    private static final class Recorder implements PacketHandler {
        final EmbeddedFabric fabric;
        final boolean releaseArrivals;
        final List<String> seen = new ArrayList<>();
        final List<Packet> arrived = new ArrayList<>();

        Recorder(EmbeddedFabric fabric, boolean releaseArrivals) {
            this.fabric = fabric;
            this.releaseArrivals = releaseArrivals;
        }

        @Override
        public void onPacket(Packet p) {
            seen.add(p.kind + " " + p.source + ">" + p.target + " #" + p.sendId);
            arrived.add(p);
            if (releaseArrivals) {
                fabric.release(p);
            }
        }

        @Override
        public void onReleased(Packet p) {
            seen.add("released #" + p.sendId);
        }

        @Override
        public void onPeerFailed(int rank, String reason) {
            seen.add("gone " + rank);
        }

        int poll() {
            return fabric.poll(this, Integer.MAX_VALUE);
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
    void eachSendersPacketsArriveInOrderAtTheTargetsNextPoll() {
        EmbeddedNetwork net = new EmbeddedNetwork(3);
        Recorder r2 = new Recorder(net.endpoint(2), false);
        for (int i = 0; i < 3; i++) {
            assertTrue(net.endpoint(1).send(packet(2, 10 + i)));
            assertTrue(net.endpoint(0).send(packet(2, i)));
        }
        assertEquals(0, r2.poll(), "nothing arrives before the network carries it");
        assertEquals(3, net.endpoint(0).outboundCount());
        assertEquals(6, net.route());
        assertEquals(6, net.endpoint(2).dueCount());
        assertEquals(6, r2.poll());
        // rank 0's packets, then rank 1's (routing goes sender by sender), each sender's in order
        assertEquals(List.of("EAGER 0>2 #0", "EAGER 0>2 #1", "EAGER 0>2 #2", "EAGER 1>2 #10", "EAGER 1>2 #11",
                "EAGER 1>2 #12"), r2.seen);
    }

    @Test
    void aReleasedPacketGoesBackToItsSenderAtItsNextPoll() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        Recorder r0 = new Recorder(net.endpoint(0), false);
        Recorder r1 = new Recorder(net.endpoint(1), true);
        Packet p = packet(1, 7);
        net.endpoint(0).send(p);
        net.route();
        assertEquals(1, r1.poll());
        assertEquals(1, net.endpoint(0).dueCount(), "the release waits for rank 0's poll");
        assertTrue(net.endpoint(0).hasPending());
        assertEquals(1, r0.poll());
        assertEquals(List.of("released #7"), r0.seen);
        assertNull(net.endpoint(1).readReleased(), "a packet another rank sent is not the test's to read");
    }

    @Test
    void aTestPlaysAPeerByReadingOutboundWritingInboundAndReleasing() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        EmbeddedFabric f0 = net.endpoint(0);
        Recorder r0 = new Recorder(f0, true);
        Packet sent = packet(1, 3);
        f0.send(sent);
        assertSame(sent, f0.readOutbound());
        assertEquals(0, sent.source, "the source is set on send");
        assertNull(f0.readOutbound());
        assertEquals(0, net.route(), "a packet the test took is not carried");

        Packet mine = packet(0, 99);
        mine.source = 1;
        f0.writeInbound(mine);
        f0.releaseOutbound(sent);
        assertEquals(2, r0.poll());
        assertEquals(List.of("EAGER 1>0 #99", "released #3"), r0.seen);
        assertSame(mine, f0.readReleased(), "what the test wrote in comes back to the test");
        assertNull(f0.readReleased());
        assertThrows(IllegalArgumentException.class, () -> f0.releaseOutbound(sent), "released twice");
        assertThrows(IllegalArgumentException.class, () -> f0.releaseOutbound(mine), "not rank 0's packet");
    }

    @Test
    void aPacketForwardedByTheTestReturnsToItsSenderWhenReleased() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        Recorder r0 = new Recorder(net.endpoint(0), false);
        Recorder r1 = new Recorder(net.endpoint(1), true);
        net.endpoint(0).send(packet(1, 5));
        net.endpoint(1).writeInbound(net.endpoint(0).readOutbound());
        r1.poll();
        r0.poll();
        assertEquals(List.of("released #5"), r0.seen);
    }

    @Test
    void aFullLinkRefusesUntilItsPacketsAreCarried() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        EmbeddedFabric f0 = net.endpoint(0);
        f0.linkCapacity(2);
        assertTrue(f0.send(packet(1, 0)));
        assertTrue(f0.send(packet(1, 1)));
        Packet third = packet(1, 2);
        assertFalse(f0.send(third));
        assertEquals(1, f0.refusedSends());
        assertEquals(-1, third.source, "a refused packet is untouched");
        assertEquals(2, net.route());
        assertTrue(f0.send(third));
        f0.linkCapacity(0);
        assertFalse(f0.send(packet(1, 3)));
        assertEquals(2, f0.refusedSends());
        assertThrows(IllegalArgumentException.class, () -> f0.linkCapacity(-1));
    }

    @Test
    void aDepartureComesAfterWhatTheLeavingRankDidBeforeIt() {
        EmbeddedNetwork net = new EmbeddedNetwork(3);
        Recorder r0 = new Recorder(net.endpoint(0), false);
        Recorder r1 = new Recorder(net.endpoint(1), true);
        net.endpoint(0).send(packet(1, 1));
        net.route();
        r1.poll(); // releases rank 0's packet
        net.endpoint(1).send(packet(0, 2));
        net.endpoint(1).close(); // its packet is still carried, before the news of its leaving
        assertTrue(net.endpoint(1).isClosed());
        r0.poll();
        assertEquals(List.of("released #1", "EAGER 1>0 #2", "gone 1"), r0.seen);
        Recorder r2 = new Recorder(net.endpoint(2), false);
        r2.poll();
        assertEquals(List.of("gone 1"), r2.seen);

        MpiException toGone = assertThrows(MpiException.class, () -> net.endpoint(0).send(packet(1, 3)));
        assertEquals(ErrorClass.ERR_PROC_FAILED, toGone.errorClass());
        MpiException fromGone = assertThrows(MpiException.class, () -> net.endpoint(1).send(packet(0, 4)));
        assertEquals(ErrorClass.ERR_OTHER, fromGone.errorClass());
        MpiException noSuchRank = assertThrows(MpiException.class, () -> net.endpoint(0).send(packet(3, 5)));
        assertEquals(ErrorClass.ERR_RANK, noSuchRank.errorClass());
    }

    @Test
    void packetsToARankThatLeftAreDroppedAndReleasesToOneAreIgnored() {
        EmbeddedNetwork net = new EmbeddedNetwork(3);
        Recorder r0 = new Recorder(net.endpoint(0), false);
        Recorder r1 = new Recorder(net.endpoint(1), false); // holds what arrives
        net.endpoint(0).send(packet(1, 1));
        net.endpoint(2).send(packet(1, 2));
        net.route();
        r1.poll();
        net.endpoint(0).send(packet(1, 3));
        net.endpoint(2).close();
        net.endpoint(1).close();
        assertEquals(1, net.route(), "carried to nowhere");
        assertEquals(0, r1.poll(), "a rank that left gets nothing");
        r0.poll();
        assertEquals(List.of("gone 2", "gone 1"), r0.seen, "rank 0 never gets its packets back");
        // rank 1 still held rank 2's packet: its release goes nowhere, rank 2 has left
        assertEquals(2, r1.arrived.get(1).sendId);
        net.endpoint(1).release(r1.arrived.get(1));
        assertEquals(0, net.endpoint(2).dueCount());
        assertNull(net.endpoint(1).readReleased(), "a network packet is never the test's to read");
    }

    @Test
    void aFailedPeerIsNoticedAfterWhatWasDueBefore() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        Recorder r0 = new Recorder(net.endpoint(0), false);
        Packet p = packet(0, 8);
        p.source = 1;
        net.endpoint(0).writeInbound(p);
        net.endpoint(0).failPeer(1, "test");
        net.endpoint(0).writeInbound(p);
        r0.poll();
        assertEquals(List.of("EAGER 1>0 #8", "gone 1", "EAGER 1>0 #8"), r0.seen);
    }

    @Test
    void pollDeliversAtMostItsLimit() {
        EmbeddedNetwork net = new EmbeddedNetwork(1);
        Recorder r = new Recorder(net.endpoint(0), false);
        for (int i = 0; i < 5; i++) {
            net.endpoint(0).send(packet(0, i)); // to itself
        }
        net.route();
        assertEquals(2, net.endpoint(0).poll(r, 2));
        assertEquals(3, net.endpoint(0).dueCount());
        assertEquals(3, net.endpoint(0).poll(r, 10));
        assertEquals(List.of("EAGER 0>0 #0", "EAGER 0>0 #1", "EAGER 0>0 #2", "EAGER 0>0 #3", "EAGER 0>0 #4"), r.seen);
    }

    @Test
    void activityIsAnnouncedWhenSomethingBecomesDue() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        int[] wakeups = new int[1];
        net.endpoint(1).onActivity(() -> wakeups[0]++);
        net.endpoint(0).send(packet(1, 0));
        assertEquals(0, wakeups[0]);
        net.route();
        assertEquals(1, wakeups[0]);
        net.endpoint(1).failPeer(0, "test");
        assertEquals(2, wakeups[0]);
    }

    @Test
    void runUntilQuiescentStepsPingPongToTheEnd() {
        EmbeddedNetwork net = new EmbeddedNetwork(2);
        int[] bounces = new int[1];
        // each rank answers an arrival with one packet back, ten times in all
        PacketHandler[] echo = new PacketHandler[2];
        for (int r = 0; r < 2; r++) {
            EmbeddedFabric f = net.endpoint(r);
            echo[r] = new PacketHandler() {
                @Override
                public void onPacket(Packet p) {
                    long seq = p.sendId;
                    int from = p.source;
                    f.release(p);
                    if (bounces[0]++ < 10) {
                        f.send(packet(from, seq + 1));
                    }
                }

                @Override
                public void onReleased(Packet p) {
                }

                @Override
                public void onPeerFailed(int rank, String reason) {
                }
            };
        }
        net.endpoint(0).send(packet(1, 0));
        List<Long> carried = new ArrayList<>();
        net.tap(p -> carried.add(p.sendId));
        int steps = net.runUntilQuiescent(() -> net.endpoint(0).poll(echo[0], 64), () -> net.endpoint(1).poll(echo[1], 64));
        assertEquals(11, bounces[0]);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L), carried);
        assertTrue(steps > 5 && steps < 20, "steps " + steps);
        assertFalse(net.endpoint(0).hasPending() || net.endpoint(1).hasPending());
    }

    @Test
    void runUntilQuiescentGivesUpOnARankThatIsNeverIdle() {
        EmbeddedNetwork net = new EmbeddedNetwork(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> net.runUntilQuiescent(10, () -> 1));
        assertTrue(e.getMessage().contains("10 steps"), e.getMessage());
    }

    @Test
    void badSizesAndRanksAreRefused() {
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> new EmbeddedNetwork(0)).errorClass());
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> new EmbeddedNetwork(1, 0)).errorClass());
        EmbeddedNetwork net = new EmbeddedNetwork(2, 4096);
        assertEquals(4096, net.endpoint(1).maxPayload());
        assertEquals(2, net.endpoint(1).size());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> net.endpoint(2)).errorClass());
    }
}
