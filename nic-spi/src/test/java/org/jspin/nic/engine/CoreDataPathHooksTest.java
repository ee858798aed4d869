package org.jspin.nic.engine;

import static org.jspin.nic.engine.CoreRig.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The data path's hooks, in the order its contract promises, on both sides. */
class CoreDataPathHooksTest {
    @Test
    void eagerToAPostedReceive() {
        CoreRig rig = new CoreRig(2);
        rig.recv(1, 0, 1, new byte[40]);
        rig.send(0, 1, 1, bytes(40, 1));
        rig.run();
        assertEquals(List.of("sendStarted s1", "fill s1 0+40", "released s1", "sendEnded s1"), rig.path(0).calls);
        assertEquals(List.of("receiveStarted r1 overflow=false", "deliver r1 0+40", "finish r1"), rig.path(1).calls);
    }

    @Test
    void eagerThatWaitedInTheOverflowBuffer() {
        CoreRig rig = new CoreRig(2);
        rig.send(0, 1, 1, bytes(40, 1));
        rig.run();
        assertEquals(List.of(), rig.path(1).calls, "copied aside by the core, not the data path");
        rig.recv(1, 0, 1, new byte[40]);
        assertEquals(List.of("receiveStarted r1 overflow=true", "deliver r1 0+40", "finish r1"), rig.path(1).calls);
    }

    @Test
    void rendezvousPostedOrNot() {
        for (boolean postFirst : new boolean[] {true, false}) {
            CoreRig rig = new CoreRig(2);
            if (postFirst) {
                rig.recv(1, 0, 1, new byte[1000]);
            }
            rig.send(0, 1, 1, bytes(1000, 2));
            rig.run();
            if (!postFirst) {
                rig.recv(1, 0, 1, new byte[1000]);
                rig.run();
            }
            assertEquals(List.of("sendStarted s1", "fill s1 0+256", "fill s1 256+256", "fill s1 512+256",
                    "fill s1 768+232", "sendEnded s1"), rig.path(0).calls("sendStarted", "fill", "sendEnded"));
            assertEquals("sendEnded s1", rig.path(0).calls.getLast(), "after the last release");
            assertEquals(5, Collections.frequency(rig.path(0).calls, "released s1"), "the RTS and four chunks");
            assertEquals(List.of("receiveStarted r1 overflow=false", "deliver r1 0+256", "deliver r1 256+256",
                    "deliver r1 512+256", "deliver r1 768+232", "finish r1"), rig.path(1).calls);
        }
    }

    @Test
    void aTruncatedReceiveStillFinishesWhatItAccepted() {
        CoreRig rig = new CoreRig(2);
        rig.recv(1, 0, 1, new byte[300]);
        rig.send(0, 1, 1, bytes(1000, 3));
        rig.run();
        assertEquals(List.of("receiveStarted r1 overflow=false", "deliver r1 0+256", "deliver r1 256+44", "finish r1"),
                rig.path(1).calls);
        assertEquals(List.of("sendStarted s1", "fill s1 0+256", "fill s1 256+44", "sendEnded s1"),
                rig.path(0).calls("sendStarted", "fill", "sendEnded"));
    }

    @Test
    void aReceiveThatNeverMatchedIsAbandonedWithoutAStartCancelledOrFailed() {
        CoreRig rig = new CoreRig(2);
        Req cancelled = rig.recv(0, 1, 1, new byte[10]);
        rig.core(0).cancel(cancelled.entry);
        assertTrue(cancelled.event().cancelled());
        assertEquals(List.of("abandon r1"), rig.path(0).calls, "told at once, as DataPath#abandon promises");
        rig.recv(0, 1, 2, new byte[10]);
        rig.fabric(0).failPeer(1, "test");
        rig.core(0).round();
        assertEquals(List.of("abandon r1", "abandon r2"), rig.path(0).calls);
    }
}
