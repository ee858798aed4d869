package org.jspin.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A peer's hello in this rank's ring proves the job secret, or fails the peer; a malformed one is dropped. */
class RingHellosTest {
    @TempDir
    Path dir;
    private RingRig rig;
    private final RingRig.Told told = new RingRig.Told();
    private Departures departures;
    private RingHellos mine;

    @BeforeEach
    void rings() {
        rig = new RingRig(dir);
        departures = new Departures(0, rig.rings, rig.boxes[0], Departures.LIVENESS_NANOS);
        mine = new RingHellos(RingRig.JOB, 0, RingRig.SECRET, rig.rings);
    }

    @AfterEach
    void close() {
        rig.close();
    }

    /** Reads every record of rank 0's ring as a hello; @return how many */
    private int readHellos() {
        return rig.boxes[0].read((type, buffer, index, length) -> {
            assertEquals(RingRecord.HELLO, type);
            mine.received(buffer, index, length, told, departures);
        });
    }

    @Test
    void aHelloWithTheSecretProvesThePeer() {
        assertFalse(mine.allProven());
        assertTrue(mine.proven(0), "this rank needs no proof");
        new RingHellos(RingRig.JOB, 1, RingRig.SECRET, rig.rings).sayHello(rig.boxes);
        assertEquals(1, readHellos());
        assertTrue(mine.proven(1));
        assertTrue(mine.allProven());
        assertTrue(told.failed.isEmpty());
    }

    @Test
    void aHelloWithAnotherSecretOrJobFailsThePeer() {
        new RingHellos(RingRig.JOB, 1, "another secret, another job's!!", rig.rings).sayHello(rig.boxes);
        assertEquals(1, readHellos());
        assertFalse(mine.proven(1));
        assertEquals(List.of("1: rank 1's hello to rank 0 does not prove the job secret"), told.failed);
        assertTrue(departures.departed(1));
    }

    @Test
    void aMalformedHelloIsDropped() {
        int at = rig.boxes[0].tryClaim(RingRecord.HELLO, RingRecord.HELLO_BYTES - 1);
        rig.rings[0].ring().putInt(at + RingRecord.HELLO_SOURCE_AT, 1);
        rig.boxes[0].commit(at);
        assertEquals(1, readHellos());
        assertFalse(mine.proven(1));
        assertTrue(told.failed.isEmpty(), "a malformed hello names no peer to fail");
    }
}
