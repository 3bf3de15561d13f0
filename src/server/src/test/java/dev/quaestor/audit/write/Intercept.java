package dev.quaestor.audit.write;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/** JDBC objects wrapped so that a test can step in on a call: to break it, hold it, or let it through. */
final class Intercept {

    /** What happens to a call on the wrapped object. */
    interface Handler {
        Object invoke(Object target, Method method, Object[] args) throws Throwable;
    }

    private Intercept() {
    }

    /** {@code target} as {@code type}, each call passed to {@code h}. */
    @SuppressWarnings("unchecked")
    static <T> T proxy(Class<T> type, T target, Handler h) {
        InvocationHandler ih = (p, method, args) -> h.invoke(target, method, args);
        return (T) Proxy.newProxyInstance(Intercept.class.getClassLoader(), new Class<?>[] {type}, ih);
    }

    /** The call made on the object itself, its own exception thrown as it is. */
    static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
