package org.jspin.datatype.testing;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.DupType;
import org.jspin.datatype.json.DatatypeJson;

/**
 * One generated case: a random type, a count, and what the oracle expects of them.
 *
 * @param seed     the generator seed that reproduces the case ({@link RandomTypes#generate})
 * @param type     the datatype (uncommitted when generated)
 * @param count    number of elements in the message
 * @param expected the oracle's bounds of the type
 * @param message  the oracle's merged pieces of {@code count} elements, in type-map order
 */
public record TypeCase(long seed, Datatype type, long count, TypeMapOracle.Expected expected, Pieces message) {

    /** @return a case for a given type (not from the generator: seed -1), with the oracle's expectations */
    public static TypeCase of(Datatype type, long count) {
        TypeMapOracle oracle = new TypeMapOracle();
        return new TypeCase(-1, type, count, oracle.expected(type), oracle.message(type, count));
    }

    /** @return bytes of the packed message */
    public long packedSize() {
        return message.total();
    }

    /** @return lowest offset the message touches (0 if empty) */
    public long lo() {
        return message.isEmpty() ? 0 : message.minOffset();
    }

    /** @return one past the highest offset the message touches (0 if empty) */
    public long hi() {
        return message.isEmpty() ? 0 : message.maxEnd();
    }

    private static boolean hasDup(Datatype t) {
        return t instanceof DupType || TypeMapOracle.children(t).stream().anyMatch(TypeCase::hasDup);
    }

    /** @return what a failing assertion prints: enough to reproduce the case */
    @Override
    public String toString() {
        return "seed " + seed + ", count " + count + ", type " + DatatypeJson.write(type)
                + (hasDup(type) ? " (a dup is written as the type it duplicates)" : "");
    }
}
