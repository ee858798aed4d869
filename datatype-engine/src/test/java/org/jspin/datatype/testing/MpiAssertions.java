package org.jspin.datatype.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.function.Executable;

/** Assertions for the engine's errors: the MPI error class, and a message that names the culprit. */
public final class MpiAssertions {
    private MpiAssertions() {
    }

    /**
     * Asserts that {@code call} throws an {@link MpiException} of class {@code expected} whose message
     * contains every one of {@code fragments} (the argument's name, its value, a JSON path...).
     *
     * @return the exception, for further checks
     */
    public static MpiException assertMpiError(ErrorClass expected, Executable call, String... fragments) {
        MpiException e = assertThrows(MpiException.class, call);
        assertEquals(expected, e.errorClass(), () -> "error class of: " + e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), () -> "message should name \"" + f + "\": " + e.getMessage());
        }
        return e;
    }
}
