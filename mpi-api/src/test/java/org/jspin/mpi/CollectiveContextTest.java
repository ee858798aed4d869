package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.nic.match.MatchBits;
import org.junit.jupiter.api.Test;

/** The collectives' transport sends and receives in its own context, from a block's origin. */
class CollectiveContextTest {
    private final RecordingNic nic = new RecordingNic();
    private final CommArguments args = new CommArguments(nic, 2);
    private final CollectiveContext coll = new CollectiveContext(new PointToPoint(nic, args, new int[] {5, 8}, 0),
            args, 3, 0);

    @Test
    void itIsTheCommunicatorsRankAndSize() {
        assertEquals(0, coll.rank());
        assertEquals(2, coll.size());
    }

    @Test
    void sendsAndReceivesCarryTheCollectiveContext() {
        MemorySegment buf = MemorySegment.ofArray(new int[4]);
        coll.isend(buf, 8, 2, Datatype.INT, 1, 11);
        coll.irecv(buf, 0, 2, Datatype.INT, 1, 11);
        assertEquals(3, MatchBits.context(nic.puts.get(0).matchBits()));
        assertEquals(8, nic.puts.get(0).target());
        assertEquals(8, nic.puts.get(0).length(), "two ints from byte 8");
        assertEquals(3, MatchBits.context(nic.posts.get(0).matchBits()));
        assertEquals(8, nic.posts.get(0).peer());
    }

    @Test
    void aBlockOutsideTheBufferIsRefusedBeforeAnythingGoes() {
        MemorySegment buf = MemorySegment.ofArray(new int[4]);
        error(ErrorClass.ERR_BUFFER, () -> coll.isend(buf, 12, 2, Datatype.INT, 1, 11), "send buffer");
        error(ErrorClass.ERR_BUFFER, () -> coll.irecv(buf, 12, 2, Datatype.INT, 1, 11), "receive buffer");
        assertTrue(nic.puts.isEmpty() && nic.posts.isEmpty());
    }
}
