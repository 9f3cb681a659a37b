package dev.agentmiddleware.sample.approval;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The sample's auditor: the one user who may read the audit trail
 * ({@code GET /agent/audit} and its export); an auditor decides no approval, and the
 * approver reads no audit.
 *
 * @param username the auditor's user name
 * @param password the auditor's password
 */
@ConfigurationProperties("sample.auditor")
public record AuditorProperties(String username, String password) {

	/**
	 * Checks that both are set.
	 */
	public AuditorProperties {
		if (username == null || username.isBlank() || password == null || password.isBlank()) {
			throw new IllegalArgumentException(
					"sample.auditor.username and sample.auditor.password must be set to read the audit trail");
		}
	}

}
