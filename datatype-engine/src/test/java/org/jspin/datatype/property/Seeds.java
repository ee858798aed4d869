package org.jspin.datatype.property;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jspin.datatype.testing.Memory;
import org.jspin.datatype.testing.RandomTypes;
import org.jspin.datatype.testing.TypeCase;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The seeds every property runs over, and a cache of their cases: each test class asks for the same
 * seeds, and generating a case (with its oracle expansion) is the expensive part.
 */
final class Seeds {
    /** How many seeds each property runs; seeds are 1..COUNT. */
    static final int COUNT = 500;

    private static final Map<Long, TypeCase> CASES = new ConcurrentHashMap<>();

    private Seeds() {
    }

    static TypeCase get(long seed) {
        return CASES.computeIfAbsent(seed, RandomTypes::generate);
    }

    /** @return the seeds, as the argument source of a {@code @ParameterizedTest} */
    static LongStream seeds() {
        return LongStream.rangeClosed(1, COUNT);
    }

    /**
     * @return every seed on the heap, and each seed once more on native memory (odd seeds) or mixed
     *         native and heap memory (even seeds): both kinds see half the seeds, for two thirds of
     *         the time of running all three
     */
    static Stream<Arguments> seedsAndMemory() {
        return seeds().boxed().flatMap(s -> Stream.of(Arguments.of(s, Memory.HEAP),
                Arguments.of(s, s % 2 == 1 ? Memory.NATIVE : Memory.MIXED)));
    }
}
