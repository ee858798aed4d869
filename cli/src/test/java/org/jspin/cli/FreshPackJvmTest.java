package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.jspin.bench.pack.BenchJvm;
import org.jspin.bench.pack.PackResult;
import org.junit.jupiter.api.Test;

class FreshPackJvmTest {
    @Test
    void theChildRunsBenchPackAsJsonWithTheMeasuringFlags() {
        List<String> c = FreshPackJvm.command("vector_d_512B");
        assertTrue(c.containsAll(BenchJvm.flags()), c.toString());
        assertEquals(List.of(Main.class.getName(), "bench", "pack", "--json", "--filter", "vector_d_512B"),
                c.subList(c.size() - 6, c.size()));
        assertTrue(c.stream().anyMatch(a -> a.startsWith("-Djspin.shared=")), c.toString());
    }

    @Test
    void itsJsonArrayIsReadInOrder() throws IOException {
        List<PackResult> r = FreshPackJvm.parse("[{\"name\":\"vector_d_512B\",\"block_bytes\":512,\"pack_gbps\":12.5,"
                + "\"unpack_gbps\":11.0,\"copy_gbps\":20.25},{\"name\":\"vector_b_4B\",\"block_bytes\":4,"
                + "\"pack_gbps\":1,\"unpack_gbps\":2,\"copy_gbps\":3}]");
        assertEquals(List.of(new PackResult("vector_d_512B", 512, 12.5, 11.0, 20.25),
                new PackResult("vector_b_4B", 4, 1, 2, 3)), r);
        assertEquals(List.of(), FreshPackJvm.parse("[]"));
    }
}
