package org.jspin.replay.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** Each (settings, type, count) is worked out once; plain bytes never are. */
class CostCacheTest {
    static final MessageType COLUMN = new MessageType(
            "{\"vector\": {\"count\": 1024, \"blocklength\": 1, \"stride\": 2, \"of\": \"double\"}}", 8192, false);
    static final MessageType DOUBLES = new MessageType("\"double\"", 8, true);

    private final List<String> computed = new ArrayList<>();
    private final CostCache.Computation counting = (type, count) -> {
        computed.add(type.packSize(1) + "x" + count);
        return new CostCache.Costs(count, 2 * count, 3 * count, 4 * count);
    };

    @Test
    void aKeyIsComputedOnce() {
        CostCache cache = new CostCache();
        CostCache.Costs first = cache.get("a", COLUMN, 3, counting);
        assertSame(first, cache.get("a", COLUMN, 3, counting));
        assertEquals(new CostCache.Costs(3, 6, 9, 12), first);
        cache.get("a", COLUMN, 4, counting);
        cache.get("b", COLUMN, 3, counting);
        assertEquals(List.of("8192x3", "8192x4", "8192x3"), computed, "another count or settings is another key");
        assertEquals(3, cache.size());
    }

    @Test
    void plainBytesAndEmptyMessagesCostNothing() {
        CostCache cache = new CostCache();
        assertSame(CostCache.Costs.NONE, cache.get("a", DOUBLES, 1000, counting));
        assertSame(CostCache.Costs.NONE, cache.get("a", COLUMN, 0, counting));
        assertTrue(computed.isEmpty());
        assertEquals(0, cache.size());
    }

    @Test
    void badInputIsNamed() {
        CostCache cache = new CostCache();
        MpiException count = assertThrows(MpiException.class, () -> cache.get("a", COLUMN, -2, counting));
        assertEquals(ErrorClass.ERR_COUNT, count.errorClass());
        assertTrue(count.getMessage().contains("-2"), count.getMessage());
        MessageType broken = new MessageType("{\"vector\": ", 8, false);
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class,
                () -> cache.get("a", broken, 1, counting)).errorClass());
        assertEquals(0, cache.size(), "nothing is kept of a failed computation");
    }
}
