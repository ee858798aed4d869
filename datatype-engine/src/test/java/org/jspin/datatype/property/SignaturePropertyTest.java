package org.jspin.datatype.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.NamedType;
import org.jspin.datatype.Signatures;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypeMapDefinition;
import org.jspin.datatype.testing.TypeMapOracle;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code MPI_Get_elements}: at every byte count of a message, the basic elements it holds equal those
 * of the type signature expanded entry by entry (from the type-map definition, not the engine), or
 * {@code UNDEFINED} where the count ends inside an entry.
 */
class SignaturePropertyTest {
    private static final TypeMapOracle ORACLE = new TypeMapOracle();

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("org.jspin.datatype.property.Seeds#seeds")
    void elementsAtEveryByteCountMatchTheExpandedSignature(long seed) {
        TypeCase c = Seeds.get(seed);
        Datatype t = c.type();
        List<Long> entries = new ArrayList<>();
        expand(t, entries);
        assertEquals(entries.size(), Signatures.basicElements(t), () -> "basic elements, " + c);
        long total = 2 * t.size(); // two elements: the count must carry over element boundaries
        long limit = Math.min(total, 4096);
        int entry = 0;
        long boundary = 0;
        long done = 0;
        for (long b = 0; b <= limit; b++) {
            while (b > boundary && done < 2L * entries.size()) { // move to the next entry boundary at or past b
                boundary += entries.get(entry);
                entry = (entry + 1) % entries.size();
                done++;
            }
            long expect = b == boundary ? done : Signatures.UNDEFINED;
            long bytes = b;
            assertEquals(expect, Signatures.elementsIn(t, bytes), () -> "elements in " + bytes + " bytes, " + c);
        }
    }

    /** Appends the sizes of {@code t}'s named-type entries, in type-map order. */
    private static void expand(Datatype t, List<Long> out) {
        if (t instanceof NamedType n) {
            out.add(n.size());
            return;
        }
        for (TypeMapDefinition.Copy copy : TypeMapDefinition.copies(t, ORACLE::extent)) {
            expand(copy.old(), out);
        }
    }

    @Test
    void namedAndStructExamples() {
        Datatype particle = Datatype.struct(new long[] {1, 3}, new long[] {0, 8},
                new Datatype[] {Datatype.INT, Datatype.DOUBLE});
        assertEquals(4, Signatures.basicElements(particle));
        assertEquals(1, Signatures.elementsIn(particle, 4));
        assertEquals(3, Signatures.elementsIn(particle, 20));
        assertEquals(Signatures.UNDEFINED, Signatures.elementsIn(particle, 6));
        assertEquals(5, Signatures.elementsIn(particle, 32));
        assertEquals(ErrorClass.ERR_COUNT,
                assertThrows(MpiException.class, () -> Signatures.elementsIn(particle, -1)).errorClass());
    }
}
