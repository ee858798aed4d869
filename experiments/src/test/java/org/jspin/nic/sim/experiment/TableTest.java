package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TableTest {
    @Test
    void measuredColumnsAreListedInColumnOrderWhateverSetNamedThem() {
        List<String> columns = List.of("a_measured", "b", "c_measured", "d_measured", "e_measured");
        // Set.of iterates in an order that changes from one JVM to the next; the table's may not
        for (int i = 0; i < 20; i++) {
            Table t = Table.of(columns, Set.of("e_measured", "a_measured", "d_measured", "c_measured"));
            assertEquals(List.of("a_measured", "c_measured", "d_measured", "e_measured"), List.copyOf(t.measured()));
        }
    }

    @Test
    void aMeasuredColumnThatIsNotAColumnIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Table.of(List.of("x", "y"), Set.of("z_measured")));
        assertTrue(e.getMessage().contains("z_measured"), e.getMessage());
    }
}
