package org.jspin.nic.match;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random sequences of posts, arrivals, cancels, probes and matched probes, replayed on the matcher
 * and on a model that states MPI's rules directly (scan lists in order, compare fields); every step
 * must agree. A failure names its seed and step.
 */
class MatcherModelTest {
    static LongStream seeds() {
        return LongStream.range(1, 201);
    }

    record Recv(int id, int ctx, int src, int tag) {
        boolean accepts(Msg m) {
            return ctx == m.ctx && (src == MatchBits.ANY_SOURCE || src == m.src)
                    && (tag == MatchBits.ANY_TAG || tag == m.tag);
        }
    }

    record Msg(int id, int ctx, int src, int tag) {
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matcherAgreesWithTheRules(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matcher<Recv, Msg> matcher = new Matcher<>();
        List<Recv> posted = new ArrayList<>();
        List<Msg> unexpected = new ArrayList<>();
        for (int step = 0; step < 400; step++) {
            String where = "seed " + seed + ", step " + step;
            int ctx = rnd.nextInt(2);
            int src = rnd.nextInt(4);
            int tag = rnd.nextInt(3);
            switch (rnd.nextInt(10)) {
                case 0, 1, 2, 3 -> { // arrival
                    Msg msg = new Msg(step, ctx, src, tag);
                    Recv expect = posted.stream().filter(r -> r.accepts(msg)).findFirst().orElse(null);
                    if (expect == null) {
                        unexpected.add(msg);
                    } else {
                        posted.remove(expect);
                    }
                    assertEquals(expect, matcher.arrive(MatchBits.of(ctx, src, tag), msg), where);
                }
                case 4, 5, 6 -> { // post, sometimes with wildcards
                    int s = rnd.nextInt(3) == 0 ? MatchBits.ANY_SOURCE : src;
                    int t = rnd.nextInt(3) == 0 ? MatchBits.ANY_TAG : tag;
                    Recv r = new Recv(step, ctx, s, t);
                    Msg expect = unexpected.stream().filter(r::accepts).findFirst().orElse(null);
                    if (expect == null) {
                        posted.add(r);
                    } else {
                        unexpected.remove(expect);
                    }
                    assertEquals(expect, matcher.post(MatchBits.select(ctx, s, t), MatchBits.ignore(s, t), r), where);
                }
                case 7 -> { // cancel a random posted receive (or one already matched)
                    if (!posted.isEmpty()) {
                        Recv r = posted.remove(rnd.nextInt(posted.size()));
                        assertEquals(true, matcher.cancel(r), where);
                        assertEquals(false, matcher.cancel(r), where);
                    }
                }
                default -> { // probe, then sometimes take
                    int s = rnd.nextBoolean() ? MatchBits.ANY_SOURCE : src;
                    Recv q = new Recv(-1, ctx, s, tag);
                    Msg expect = unexpected.stream().filter(q::accepts).findFirst().orElse(null);
                    long sel = MatchBits.select(ctx, s, tag);
                    long ign = MatchBits.ignore(s, tag);
                    assertEquals(expect, matcher.probe(sel, ign), where);
                    if (rnd.nextBoolean()) {
                        unexpected.remove(expect);
                        assertEquals(expect, matcher.take(sel, ign), where);
                    }
                }
            }
            assertEquals(posted.size(), matcher.postedCount(), where);
            assertEquals(unexpected.size(), matcher.unexpectedCount(), where);
        }
    }
}
