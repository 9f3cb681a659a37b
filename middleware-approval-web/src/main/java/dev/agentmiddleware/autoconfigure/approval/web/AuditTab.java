package dev.agentmiddleware.autoconfigure.approval.web;

/**
 * The approval console's audit tab: where the audit trail's REST API is served and the
 * authority that reads it. Present only when that API is served (with Spring Security);
 * the console shows the tab to users with the authority, and lets them open the console
 * even when they are no approvers.
 *
 * @param path the audit trail's REST API path
 * @param authority the auditor authority, such as {@code ROLE_auditor}
 */
record AuditTab(String path, String authority) {

}
