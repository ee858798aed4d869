package org.jspin.bench;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

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

    /**
     * @param all  the things to choose from
     * @param name how each is named
     * @return those of {@code all} this selects, in order
     * @throws MpiException ERR_ARG naming this filter and the names there are, if it selects none
     */
    public <T> List<T> select(List<T> all, Function<? super T, String> name) {
        List<T> chosen = all.stream().filter(on(name)).toList();
        if (chosen.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_ARG, "--filter '" + text + "' matches no case; the cases are "
                    + all.stream().map(name).collect(Collectors.joining(", ")));
        }
        return chosen;
    }

    @Override
    public String toString() {
        return pattern == null ? "(all)" : text;
    }
}
