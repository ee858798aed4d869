package org.jspin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;

/** Case names are selected by a regular expression, or literally when the text is not one. */
class NameFilterTest {

    @Test
    void nameFilterIsRegexOrSubstring() {
        assertTrue(NameFilter.of(null).test("anything"));
        assertTrue(NameFilter.of(" ").test("anything"));
        assertTrue(NameFilter.of("d_64").test("vector_d_64B"));
        assertFalse(NameFilter.of("d_64").test("vector_d_8B"));
        assertTrue(NameFilter.of("^nas_mg_[xy]_").test("nas_mg_y_34x18x18"));
        assertFalse(NameFilter.of("^nas_mg_[xy]_").test("nas_mg_z_34x18x18"));
        // not a valid expression: taken literally
        assertTrue(NameFilter.of("weird[").test("a_weird[_name"));
        assertFalse(NameFilter.of("weird[").test("weird"));
    }

    @Test
    void pingPongNamesSelectOneCaseByAnchoring() {
        assertTrue(NameFilter.of("bw_4MiB$").test("bw_4MiB"));
        assertFalse(NameFilter.of("bw_4MiB$").test("bw_4MiB_vector_64B_stride_128B"));
        assertTrue(NameFilter.of("bw_4MiB").test("bw_4MiB_vector_64B_stride_128B"));
    }

    @Test
    void selectsThingsByTheirName() {
        List<String> names = List.of("latency_8B", "bw_4MiB", "bw_4MiB_vector_64B_stride_128B");
        assertEquals(List.of("bw_4MiB"), names.stream().map(StringBuilder::new)
                .filter(NameFilter.of("^bw_4MiB$").on(StringBuilder::toString)).map(StringBuilder::toString).toList());
    }

    @Test
    void aFilterThatSelectsNothingIsAnErrorNamingItAndTheCases() {
        List<String> names = List.of("latency_8B", "bw_4MiB");
        assertEquals(List.of("bw_4MiB"), NameFilter.of("bw_").select(names, n -> n));
        assertEquals(names, NameFilter.of(null).select(names, n -> n));
        MpiException e = assertThrows(MpiException.class, () -> NameFilter.of("nosuch").select(names, n -> n));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains("'nosuch'") && e.getMessage().contains("latency_8B, bw_4MiB"), e.getMessage());
    }
}
