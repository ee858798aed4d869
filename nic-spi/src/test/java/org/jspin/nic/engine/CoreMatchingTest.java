package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** MPI matching through the core: order, wildcards, cancel, probes and matched probes. */
class CoreMatchingTest {
    private static final int ANY = -1;

    /** Sizes mixing eager (<= 64) and rendezvous messages from one sender. */
    private static final int[] SIZES = {10, 500, 20, 700, 30};

    @Test
    void messagesFromOneSenderMatchInTheOrderSentEagerOrNot() {
        for (boolean postFirst : new boolean[] {true, false}) {
            CoreRig rig = new CoreRig(2);
            byte[][] bufs = new byte[SIZES.length][];
            List<Req> recvs = new ArrayList<>();
            if (postFirst) {
                for (int i = 0; i < SIZES.length; i++) {
                    bufs[i] = new byte[700];
                    recvs.add(rig.recv(1, 0, 4, bufs[i]));
                }
            }
            for (int i = 0; i < SIZES.length; i++) {
                rig.send(0, 1, 4, bytes(SIZES[i], i));
            }
            rig.run();
            if (!postFirst) {
                for (int i = 0; i < SIZES.length; i++) {
                    bufs[i] = new byte[700];
                    recvs.add(rig.recv(1, 0, 4, bufs[i]));
                }
                rig.run();
            }
            for (int i = 0; i < SIZES.length; i++) {
                Event e = recvs.get(i).event();
                assertNull(e.error());
                assertEquals(SIZES[i], e.messageBytes(), "receive " + i + " (posted first: " + postFirst + ")");
                assertArrayEquals(bytes(SIZES[i], i), java.util.Arrays.copyOf(bufs[i], SIZES[i]));
            }
        }
    }

    @Test
    void wildcardReceivesMatchInArrivalOrder() {
        CoreRig rig = new CoreRig(3);
        rig.send(1, 0, 11, bytes(8, 1));
        rig.run();
        rig.send(2, 0, 12, bytes(8, 2));
        rig.run();
        rig.send(1, 0, 13, bytes(8, 3));
        rig.run();
        List<Req> recvs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            recvs.add(rig.recv(0, ANY, ANY, new byte[8]));
        }
        int[] sources = {1, 2, 1};
        int[] tags = {11, 12, 13};
        for (int i = 0; i < 3; i++) {
            Event e = recvs.get(i).event();
            assertEquals(sources[i], MatchBits.source(e.matchBits()), "receive " + i);
            assertEquals(tags[i], MatchBits.tag(e.matchBits()), "receive " + i);
        }
    }

    @Test
    void anArrivingMessageTakesTheEarliestPostedReceiveThatAcceptsIt() {
        CoreRig rig = new CoreRig(3);
        Req specificOther = rig.recv(0, 2, 5, new byte[8]);
        Req wildcard = rig.recv(0, ANY, 5, new byte[8]);
        Req specific = rig.recv(0, 1, 5, new byte[8]);
        Req anyTag = rig.recv(0, 1, ANY, new byte[8]);
        rig.send(1, 0, 5, bytes(8, 1));
        rig.send(1, 0, 5, bytes(8, 2));
        rig.send(1, 0, 6, bytes(8, 3));
        rig.run();
        assertFalse(specificOther.done());
        assertEquals(5, MatchBits.tag(wildcard.event().matchBits()));
        assertEquals(1, MatchBits.source(specific.event().matchBits()));
        assertEquals(6, MatchBits.tag(anyTag.event().matchBits()));
        assertEquals(0, rig.meter("jspin.unexpected.bytes.copied", 0));
    }

    @Test
    void aCancelledReceiveCompletesCancelledAndLeavesLaterMessagesAlone() {
        CoreRig rig = new CoreRig(2);
        byte[] buf = new byte[8];
        Req cancelled = rig.recv(1, 0, 1, buf);
        rig.core(1).cancel(cancelled.entry);
        assertTrue(cancelled.event().cancelled());
        assertNull(cancelled.event().error());

        rig.send(0, 1, 1, bytes(8, 9));
        rig.run();
        assertArrayEquals(new byte[8], buf, "a cancelled receive's buffer is not written");
        assertEquals(8, rig.meter("jspin.unexpected.bytes.copied", 1), "the message waits for another receive");
        byte[] other = new byte[8];
        Req next = rig.recv(1, 0, 1, other);
        assertArrayEquals(bytes(8, 9), other);
        rig.core(1).cancel(next.entry); // matched already: nothing happens
        assertEquals(1, next.events.size());
        assertFalse(next.event().cancelled());
        rig.core(1).cancel(cancelled.entry); // twice: nothing happens
        assertEquals(1, cancelled.events.size());
    }

    @Test
    void aProbeReportsAWaitingMessageAndLeavesItThere() {
        CoreRig rig = new CoreRig(2);
        long match = MatchBits.select(CoreRig.CONTEXT, 0, 3);
        long ignore = MatchBits.ignore(0, 3);
        Req none = new Req();
        rig.core(1).probe(0, match, ignore, false, false, none);
        assertNull(none.event(), "nothing yet");

        rig.send(0, 1, 3, bytes(20, 1));
        rig.run();
        Req found = new Req();
        rig.core(1).probe(0, match, ignore, false, false, found);
        assertEquals(Event.Kind.PROBE, found.event().kind());
        assertEquals(20, found.event().messageBytes());
        assertEquals(3, MatchBits.tag(found.event().matchBits()));
        assertNull(found.matched.get(0), "a plain probe takes nothing");
        byte[] buf = new byte[20];
        Req recv = rig.recv(1, 0, 3, buf);
        assertArrayEquals(bytes(20, 1), buf);
        assertNull(recv.event().error());
    }

    @Test
    void aWaitingProbeIsAnsweredWhenAMatchingMessageArrives() {
        CoreRig rig = new CoreRig(2);
        Req probe = new Req();
        rig.core(1).probe(ANY, MatchBits.select(CoreRig.CONTEXT, ANY, 8), MatchBits.ignore(ANY, 8), false, true, probe);
        rig.send(0, 1, 7, bytes(5, 1)); // another tag: the probe keeps waiting
        rig.run();
        assertFalse(probe.done());
        rig.send(0, 1, 8, bytes(900, 2)); // a rendezvous message: its RTS is probed
        rig.run();
        assertEquals(900, probe.event().messageBytes());
        assertEquals(0, MatchBits.source(probe.event().matchBits()));
    }

    @Test
    void aMatchedProbeTakesTheMessageSoOnlyItsReceiveGetsIt() {
        for (int size : new int[] {40, 900}) { // eager, rendezvous
            CoreRig rig = new CoreRig(2);
            Req send = rig.send(0, 1, 2, bytes(size, 3));
            rig.run();
            Req mprobe = new Req();
            rig.core(1).probe(0, MatchBits.select(CoreRig.CONTEXT, 0, 2), MatchBits.ignore(0, 2), true, false, mprobe);
            MatchedMessage message = mprobe.matched.get(0);
            assertNotNull(message);
            assertEquals(size, message.messageBytes());

            Req other = rig.recv(1, 0, 2, new byte[size]);
            rig.run();
            assertFalse(other.done(), "the message was taken: another receive does not get it");

            byte[] buf = new byte[size];
            Req took = new Req();
            took.recv = rig.core(1).receiveMatched(message, CoreRig.entry(took, ANY, ANY, MemorySegment.ofArray(buf), size,
                    Datatype.BYTE));
            rig.run();
            assertNull(took.event().error());
            assertArrayEquals(bytes(size, 3), buf);
            assertEquals(size, took.event().messageBytes());
            assertNull(send.event().error());
            assertEquals(size > 64, !took.recv.fromOverflow(), "an eager message comes from the overflow buffer");
        }
    }

    @Test
    void aMessageNotTakenByThisCoresProbeIsRefused() {
        CoreRig rig = new CoreRig(2);
        MatchedMessage foreign = new MatchedMessage() {
            @Override
            public long matchBits() {
                return 0;
            }

            @Override
            public long messageBytes() {
                return 0;
            }
        };
        Req r = new Req();
        MatchEntry entry = CoreRig.entry(r, ANY, ANY, MemorySegment.ofArray(new byte[1]), 1, Datatype.BYTE);
        MpiException e = assertThrows(MpiException.class, () -> rig.core(1).receiveMatched(foreign, entry));
        assertEquals(ErrorClass.ERR_REQUEST, e.errorClass());
    }
}
