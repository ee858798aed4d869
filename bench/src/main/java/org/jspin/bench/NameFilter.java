package org.jspin.bench;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Selects cases by name: a regular expression found anywhere in the name ({@code vector_d_},
 * {@code ^nas_mg_.*_130x66x66$}, {@code cube|struct}); text that is not a valid expression is
 * taken literally, as a substring. A plain name is thus a substring match, which is what a person
 * typing part of a name expects.
 */
public final class NameFilter implements Predicate<String> {
    private final String text;
    private final Pattern pattern;

    private NameFilter(String text, Pattern pattern) {
        this.text = text;
        this.pattern = pattern;
    }

    /** @return a filter for {@code text}; null or blank selects every name */
    public static NameFilter of(String text) {
        if (text == null || text.isBlank()) {
            return new NameFilter("", null);
        }
        Pattern p;
        try {
            p = Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            p = Pattern.compile(Pattern.quote(text));
        }
        return new NameFilter(text, p);
    }

    /** @return whether {@code name} is selected */
    @Override
    public boolean test(String name) {
        return pattern == null || pattern.matcher(name).find();
    }

    /** @return a predicate selecting the things whose name (as {@code name} gives it) this selects */
    public <T> Predicate<T> on(Function<? super T, String> name) {
        return t -> test(name.apply(t));
    }

    @Override
    public String toString() {
        return pattern == null ? "(all)" : text;
    }
}
