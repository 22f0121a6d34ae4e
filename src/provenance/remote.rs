//! What build.rs may record as the source of a binary, checked the same way at build time
//! (this file is also build.rs's) and when `init --install-from` names one: a repository's
//! https address, a full commit id, a date.

/// The https address of a git remote (`https://HOST/PATH`, `git@HOST:PATH` or
/// `ssh://[USER@]HOST[:PORT]/PATH`), without any `user:token@` part, or `None` when it is
/// none of those (a local folder, `file://`, `http://`) or holds a character outside
/// letters, digits and `.-_~/`: nothing else may reach a workflow file.
pub fn https_address(remote: &str) -> Option<String> {
    let remote = remote.trim();
    let (host, path) = if let Some(rest) = remote.strip_prefix("https://") {
        rest.split_once('/')?
    } else if let Some(rest) = remote.strip_prefix("ssh://") {
        let (host, path) = rest.split_once('/')?;
        (host.split(':').next()?, path)
    } else {
        let (host, path) = remote.split_once(':')?;
        if !host.contains('@') || path.starts_with('/') {
            return None;
        }
        (host, path)
    };
    let host = host.rsplit('@').next()?;
    let path = path.trim_end_matches('/');
    let host_ok = !host.is_empty()
        && host.contains('.')
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let path_ok = !path.is_empty()
        && path
            .split('/')
            .all(|segment| !segment.is_empty() && segment != "." && segment != "..")
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._~/-".contains(&b));
    (host_ok && path_ok).then(|| format!("https://{host}/{path}"))
}

/// A full git commit id: 40 (SHA-1) or 64 (SHA-256) lowercase hexadecimal digits.
pub fn is_commit(text: &str) -> bool {
    matches!(text.len(), 40 | 64)
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A date written `YYYY-MM-DD` (digits in those places; what git's `%cs` prints): build.rs
/// checks the recorded date with it, the crate's tests the value recorded.
#[cfg_attr(not(test), allow(dead_code))]
pub fn is_date(text: &str) -> bool {
    text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        })
}
