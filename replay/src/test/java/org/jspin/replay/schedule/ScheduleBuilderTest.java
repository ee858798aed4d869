package org.jspin.replay.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.cost.MessageType;
import org.junit.jupiter.api.Test;

class ScheduleBuilderTest {
    @Test
    void keepsOperationsRankByRankAndDependentsInOrder() {
        ScheduleBuilder b = new ScheduleBuilder("s", 2);
        b.beginRank(0, 1);
        int a = b.calc(5, 0, null, 1);
        int c = b.send(1, 3, 8, 0, 0, "snd", 2);
        int d = b.calc(1, 0, null, 3);
        b.requires(d, a, 4);
        b.requires(c, a, 5);
        b.irequires(d, c, 6);
        b.beginRank(1, 7);
        int r = b.recv(0, 3, 8, 0, 0, null, 8);
        MessageType t = new MessageType("\"double\"", 8, true);
        b.datatype(r, t, 1);
        Schedule s = b.build();
        assertEquals(4, s.operations());
        assertEquals(3, s.firstOf(1));
        assertEquals(1, s.rankOf(r));
        assertEquals(0, s.rankOf(d));
        assertEquals(2, s.completionDependents(a));
        assertEquals(d, s.completionDependent(a, 0));
        assertEquals(c, s.completionDependent(a, 1));
        assertEquals(d, s.startDependent(c, 0));
        assertEquals(2, s.dependencies(d));
        assertEquals("snd", s.label(c));
        assertEquals("l0", s.label(r));
        assertEquals(0, s.type(r));
        assertEquals(t, s.types().get(0));
        assertEquals(Schedule.PLAIN, s.type(c));
    }

    @Test
    void refusesMissingRanksAndCycles() {
        ScheduleBuilder missing = new ScheduleBuilder("s", 3);
        missing.beginRank(0, 1);
        MpiException e = assertThrows(MpiException.class, missing::build);
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertEquals("s: rank 1 of 3 has no schedule", e.reason());

        ScheduleBuilder cycle = new ScheduleBuilder("s", 1);
        cycle.beginRank(0, 1);
        int x = cycle.calc(1, 0, "x", 2);
        int y = cycle.calc(1, 0, "y", 3);
        cycle.requires(x, y, 4);
        cycle.irequires(y, x, 5);
        assertTrue(assertThrows(MpiException.class, cycle::build).getMessage().contains("x (line 2), y (line 3)"));
        assertThrows(MpiException.class, () -> cycle.requires(x, x, 6));
        assertThrows(MpiException.class, () -> new ScheduleBuilder("s", 0));
    }
}
