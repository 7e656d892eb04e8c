package dev.resilience.redrive;

import java.lang.reflect.Method;
import java.util.List;
import java.util.regex.Pattern;

import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.registry.ArgumentRenderer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.ResolvableType;

/**
 * Reads a dead letter's stored arguments back into a method's parameter types, with the
 * mapper that rendered them, and refuses what cannot be read back faithfully: a truncated
 * argument, one stored as its type name, one holding a masked value
 * ({@value DeadLetterSanitizer#MASK}), one that does not parse into its type, and one
 * that, read back and rendered again, is not the JSON stored (a property the type no
 * longer has or does not write).
 */
final class StoredArguments {

    private static final Pattern TYPE_NAME = Pattern.compile("<[\\w.$\\[\\];]+>");

    private final JsonMapper mapper;

    private final ArgumentRenderer renderer;

    StoredArguments(JsonMapper mapper, ArgumentRenderer renderer) {
        this.mapper = mapper.rebuild().disable(DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE).build();
        this.renderer = renderer;
    }

    /**
     * Reads the arguments of a call.
     * @param arguments the arguments as stored
     * @param method the method
     * @param beanClass the class of the bean, to resolve generic parameter types
     * @return the arguments
     * @throws UnreadableException saying which argument cannot be read back, and why
     */
    @Nullable Object[] read(List<String> arguments, Method method, Class<?> beanClass) {
        @Nullable Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = read(i, arguments.get(i), method, beanClass);
        }
        return values;
    }

    private @Nullable Object read(int index, String stored, Method method, Class<?> beanClass) {
        String which = "argument " + index;
        if (DeadLetterText.isTruncated(stored)) {
            throw new UnreadableException(which + " was truncated when stored (resilience.dead-letter."
                    + "max-argument-size); its whole value is not known");
        }
        if (TYPE_NAME.matcher(stored).matches()) {
            throw new UnreadableException(
                    which + " was not written as JSON, only its type name " + stored + " was stored");
        }
        JsonNode tree;
        try {
            tree = this.mapper.readTree(stored);
        }
        catch (RuntimeException ex) {
            throw new UnreadableException(which + " was not stored as JSON");
        }
        if (holdsMask(tree)) {
            throw new UnreadableException(
                    which + " holds a masked value (" + DeadLetterSanitizer.MASK + "); its real value is not known");
        }
        ResolvableType parameter = ResolvableType.forMethodParameter(method, index, beanClass);
        Class<?> declared = parameter.toClass();
        if (!tree.isNull() && (declared == Object.class || declared == Number.class)) {
            throw new UnreadableException(which + " is declared as " + declared.getSimpleName()
                    + ", and its JSON does not say which type it was: it could run as another");
        }
        JavaType type = this.mapper.getTypeFactory().constructType(parameter.getType());
        Object value;
        try {
            value = this.mapper.readValue(stored, type);
        }
        catch (RuntimeException ex) {
            throw new UnreadableException(
                    which + " does not read as " + parameter + " (" + ex.getClass().getSimpleName() + ")");
        }
        if (!stored.equals(this.renderer.render(value))) {
            throw new UnreadableException(which + " read as " + parameter + " is not the JSON stored: the type "
                    + "no longer has, or does not write, a value it held");
        }
        return value;
    }

    private static boolean holdsMask(JsonNode node) {
        if (node.isString()) {
            return DeadLetterSanitizer.MASK.equals(node.asString());
        }
        for (JsonNode child : node) {
            if (holdsMask(child)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A stored argument that cannot be read back; its message says which and why, and
     * never shows the value.
     */
    static final class UnreadableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UnreadableException(String message) {
            super(message);
        }

    }

}
