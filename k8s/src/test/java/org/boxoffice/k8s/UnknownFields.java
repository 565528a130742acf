package org.boxoffice.k8s;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Finds fields a manifest sets that Kubernetes does not define. kubectl kustomize renders
 * anything, and the fabric8 model keeps a field it does not know in its "additional properties"
 * instead of failing, so a misspelt {@code publishNotReadyAdresses} would otherwise pass every
 * check and be silently dropped by the API server.
 */
final class UnknownFields {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

    private UnknownFields() {
    }

    /** Paths such as {@code spec.template.spec.containers[0].livenessProbe: [periodSecond]}. */
    static List<String> in(Object model) {
        List<String> found = new ArrayList<>();
        walk(model, "", found);
        return found;
    }

    private static void walk(Object value, String path, List<String> found) {
        switch (value) {
            case null -> {
            }
            case List<?> list -> {
                for (int i = 0; i < list.size(); i++) {
                    walk(list.get(i), path + "[" + i + "]", found);
                }
            }
            case Map<?, ?> map -> map.forEach((k, v) -> walk(v, path + "[" + k + "]", found));
            default -> {
                if (value.getClass().getPackageName().startsWith(MODEL_PACKAGE)) {
                    walkModel(value, path, found);
                }
            }
        }
    }

    private static void walkModel(Object model, String path, List<String> found) {
        List<Method> getters = List.of(model.getClass().getMethods()).stream()
                .filter(m -> m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getName().startsWith("get") && m.getName().length() > 3)
                .filter(m -> m.getDeclaringClass().getPackageName().startsWith("io.fabric8"))
                .filter(m -> !m.getReturnType().isPrimitive())
                .sorted(Comparator.comparing(Method::getName))
                .toList();
        for (Method getter : getters) {
            Object value = invoke(getter, model, path);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add((path.isEmpty() ? "(top level)" : path) + ": " + extra.keySet());
                }
            } else {
                walk(value, child(path, getter.getName()), found);
            }
        }
    }

    private static Object invoke(Method getter, Object model, String path) {
        try {
            return getter.invoke(model);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(getter + " at " + path, e);
        } catch (InvocationTargetException e) {
            throw new AssertionError("cannot read " + child(path, getter.getName()) + ": " + e.getCause(), e.getCause());
        }
    }

    private static String child(String path, String getterName) {
        String field = Character.toLowerCase(getterName.charAt(3)) + getterName.substring(4);
        return path.isEmpty() ? field : path + "." + field;
    }
}
