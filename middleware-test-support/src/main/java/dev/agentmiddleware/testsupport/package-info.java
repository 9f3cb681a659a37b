/**
 * Test-only support shared by the modules' tests: conditions for tests that need a
 * service which CI installs ({@link dev.agentmiddleware.testsupport.RequiresService}) and
 * a fresh PostgreSQL schema per test class
 * ({@link dev.agentmiddleware.testsupport.PostgresTestDatabase}).
 */
@NullMarked
package dev.agentmiddleware.testsupport;

import org.jspecify.annotations.NullMarked;
