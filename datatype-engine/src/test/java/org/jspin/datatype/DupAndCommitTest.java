package org.jspin.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import org.jspin.datatype.json.LayoutSummary;
import org.jspin.datatype.lower.CompiledType;
import org.jspin.datatype.testing.Named;
import org.jspin.datatype.testing.RandomTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Dup keeps the type map and the bounds but is a separate, uncommitted type; commit is idempotent and safe. */
class DupAndCommitTest {

    static Stream<Datatype> types() {
        return Stream.of(
                Named.DOUBLE,
                Datatype.resized(-8, 5, Datatype.vector(3, 2, -4, Named.INT)),
                Datatype.subarray(new long[] {3, 4}, new long[] {2, 2}, new long[] {1, 1}, Order.FORTRAN,
                        Named.SHORT),
                Datatype.struct(new long[] {1, 0, 2}, new long[] {-3, 50, 7},
                        new Datatype[] {Named.BYTE, Named.LONG, Named.FLOAT}),
                Datatype.contiguous(0, Named.INT));
    }

    @ParameterizedTest
    @MethodSource("types")
    void dupKeepsBoundsAndLayoutAndIsUncommitted(Datatype t) {
        t.commit();
        Datatype d = t.dup();
        assertFalse(d.isCommitted(), "a dup starts uncommitted");
        assertEquals(t.size(), d.size());
        assertEquals(t.lb(), d.lb());
        assertEquals(t.ub(), d.ub());
        assertEquals(t.trueLb(), d.trueLb());
        assertEquals(t.trueUb(), d.trueUb());
        assertEquals(LayoutSummary.of(t, 3), LayoutSummary.of(d, 3));
        Datatype dd = d.dup();
        assertEquals(LayoutSummary.of(t, 2), LayoutSummary.of(dd, 2), "dup of a dup");
        d.commit();
        assertNotSame(t.compiled(), d.compiled(), "a dup commits on its own");
    }

    @Test
    void committingADupLeavesTheOriginalUncommitted() {
        Datatype t = Datatype.vector(2, 1, 2, Named.INT);
        t.dup().commit();
        assertFalse(t.isCommitted());
    }

    @Test
    void commitIsIdempotentAndDoesNotCommitComponents() {
        Datatype inner = Datatype.contiguous(2, Named.INT);
        Datatype t = Datatype.vector(3, 1, 2, inner);
        assertFalse(t.isCommitted());
        assertSame(t, t.commit(), "commit returns the type");
        CompiledType first = t.compiled();
        assertSame(t, t.commit());
        assertSame(first, t.compiled(), "a second commit keeps the compiled form");
        assertSame(t, first.type());
        assertFalse(inner.isCommitted(), "components are not committed themselves");
    }

    @Test
    void concurrentCommitsAllSeeTheSameCompiledForm() throws InterruptedException {
        int threads = 8;
        // many fresh types, so that some commits really do race
        List<Datatype> types = new ArrayList<>();
        for (long seed = 1; seed <= 60; seed++) {
            types.add(RandomTypes.generate(seed).type().dup());
        }
        for (Datatype t : types) {
            AtomicReferenceArray<CompiledType> seen = new AtomicReferenceArray<>(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int k = i;
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    seen.set(k, t.commit().compiled());
                }));
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            assertTrue(t.isCommitted());
            for (int i = 0; i < threads; i++) {
                assertSame(t.compiled(), seen.get(i), "thread " + i + " saw another compiled form of " + t);
            }
        }
    }
}
