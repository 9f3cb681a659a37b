/**
 * JMH benchmarks of the middleware chain against a direct call, a Spring AOP proxy and
 * Spring AI's own {@code MethodToolCallback}.
 */
@NullMarked
package dev.agentmiddleware.benchmarks;

import org.jspecify.annotations.NullMarked;
