//! Chinese words written more than one way: variant characters (帐号 and
//! 账号), older and newer renderings of one technical term (口令 and 密码,
//! 缺省 and 默认), the renderings translators of database manuals chose
//! differently (规划器 and 计划器 for planner, 线外 and 行外 for
//! out-of-line, 开窗函数 and 窗口函数), the two renderings of words such as
//! access (访问, 存取), monitor (监控, 监视) and aggregate (聚合, 聚集) in
//! computing manuals, and
//! common slips (登陆 for 登录). A
//! manual keeps to one spelling (or to two, as PostgreSQL's writes both
//! 规划器 and 计划器) and its reader may type another, so a query word
//! holding one is also searched with the others. Every spelling of a group
//! has as many chars as the others: a word's spellings then have their
//! bigrams at the same positions, and a sentence's bigrams have their
//! alternatives in place.

use crate::text::is_cjk;

/// Groups of spellings of one word, longest first where one holds another.
const GROUPS: &[&[&str]] = &[
    &["账号", "帐号", "账户", "帐户"],
    &["密码", "口令"],
    &["默认", "缺省"],
    &["篡改", "窜改"],
    &["登录", "登陆"],
    &["其他", "其它"],
    &["部分", "部份"],
    &["创建", "建立"],
    &["删除", "移除"],
    &["网络", "网路"],
    &["磁盘", "硬盘"],
    &["设置", "设定"],
    &["执行", "运行"],
    &["修改", "更改"],
    &["访问", "存取"],
    &["监控", "监视"],
    &["后备服务器", "备用服务器"],
    &["基础类型", "基本类型"],
    &["排序规则", "校对规则"],
    &["窗口函数", "开窗函数"],
    &["聚合函数", "聚集函数"],
    &["聚合", "聚集"],
    &["全文搜索", "全文检索"],
    &["隔离级别", "隔离等级"],
    &["规划器", "计划器"],
    &["序列化", "串行化"],
    &["归档", "存档"],
    &["恢复", "还原"],
    &["线外", "行外"],
    &["线内", "行内"],
    &["连接", "联接"],
    &["哈希", "散列"],
    &["集簇", "集群"],
    &["权限", "特权"],
    &["账", "帐"],
];

/// Short forms programmers write for words a manual writes out (`stdout`
/// for "standard output"): a query word that is one is also searched as
/// the words it stands for. Only forms that stand for nothing else.
const SHORT_FORMS: &[(&str, &str)] = &[
    ("stdin", "standard input"),
    ("stdout", "standard output"),
    ("stderr", "standard error"),
    ("regex", "regular expression"),
    ("regexp", "regular expression"),
];

/// What a folded query word written in short stands for (`stdout` →
/// `standard output`), if it is one of [`SHORT_FORMS`].
pub(crate) fn long_form(folded: &str) -> Option<&'static str> {
    SHORT_FORMS.iter().find(|(short, _)| *short == folded).map(|(_, long)| *long)
}

/// Most places in a word where `ae`, `oe` or `ue` is tried as the umlaut
/// it may stand for (see [`umlaut_forms`]).
const MAX_UMLAUT_SPOTS: usize = 3;

/// The forms of a folded Latin word written with `ae`, `oe` or `ue` for
/// `ä`, `ö`, `ü` (`schluessel`, `paketgroesse`), as a keyboard without
/// umlauts types them: each with some of those pairs as the letter the
/// index folds the umlaut to (`schlussel`, `paketgrosse`; `ß` is folded to
/// `ss` already), those changing most first. A pair may be a real one
/// (`steuerschluessel`), so each choice of them is a form. Empty for a
/// word with none, or with CJK text.
pub(crate) fn umlaut_forms(folded: &str) -> Vec<String> {
    if folded.chars().any(is_cjk) {
        return Vec::new();
    }
    let spots: Vec<usize> = folded
        .match_indices(['a', 'o', 'u'])
        .map(|(at, _)| at)
        .filter(|&at| folded[at + 1..].starts_with('e'))
        .take(MAX_UMLAUT_SPOTS)
        .collect();
    let mut forms: Vec<(u32, String)> = (1u32..1 << spots.len())
        .map(|chosen| {
            let mut form = folded.to_owned();
            // (From the end, so earlier places keep their offsets.)
            for (i, &at) in spots.iter().enumerate().rev() {
                if chosen & (1 << i) != 0 {
                    form.remove(at + 1);
                }
            }
            (chosen.count_ones(), form)
        })
        .collect();
    forms.sort_by_key(|(changed, _)| std::cmp::Reverse(*changed));
    forms.into_iter().map(|(_, form)| form).collect()
}

/// Spellings of one word searched, at most (the one written among them):
/// a sentence holding many such words is searched with the first ones'.
const MAX_SPELLINGS: usize = 8;

/// The spellings of a folded query word: the one written first, then its
/// simplified form if it is written in traditional characters, then each
/// other, with as many chars; only the one written when it holds no
/// traditional character and no word of [`GROUPS`].
pub(crate) fn spellings(folded: &str) -> Vec<String> {
    // Every spelling is Chinese: a word without a CJK char has only its own.
    if !folded.chars().any(is_cjk) {
        return vec![folded.to_owned()];
    }
    let chars: Vec<char> = folded.chars().collect();
    // Written in traditional characters (`資料庫`), it is searched as
    // simplified text (`资料库`) too; the groups' words are simplified.
    let simple: Vec<char> = chars.iter().map(|&c| crate::t2s::simplified(c).unwrap_or(c)).collect();
    // Each place a group's word stands: its char offset, length and group.
    let mut spots: Vec<(usize, usize, &[&str])> = Vec::new();
    let mut at = 0;
    while at < simple.len() {
        let found = GROUPS.iter().find_map(|group| {
            let len = group[0].chars().count();
            let here: String = simple.get(at..at + len)?.iter().collect();
            group.contains(&here.as_str()).then_some((at, len, *group))
        });
        match found {
            Some(spot) => {
                at += spot.1;
                spots.push(spot);
            }
            None => at += 1,
        }
    }
    // (The groups' other spellings are the simplified form's.)
    let traditional = (simple != chars).then_some(chars);
    let room = MAX_SPELLINGS - usize::from(traditional.is_some());
    let mut all = vec![simple];
    for (at, len, group) in spots {
        for i in 0..all.len() {
            for other in group.iter() {
                if all.len() == room {
                    break;
                }
                let mut spelled = all[i].clone();
                spelled.splice(at..at + len, other.chars());
                if !all.contains(&spelled) {
                    all.push(spelled);
                }
            }
        }
    }
    if let Some(written) = traditional {
        all.insert(0, written);
    }
    all.into_iter().map(|cs| cs.into_iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_searched_with_its_other_spellings() {
        assert_eq!(spellings("口令文件"), ["口令文件", "密码文件"]);
        assert_eq!(spellings("添加帐号"), ["添加帐号", "添加账号", "添加账户", "添加帐户"]);
        // A lone variant char too, and the longest word first (账号, not 账).
        assert_eq!(spellings("记帐"), ["记帐", "记账"]);
        // A term translators render two ways.
        assert_eq!(spellings("存储到行外"), ["存储到行外", "存储到线外"]);
        assert_eq!(spellings("开窗函数"), ["开窗函数", "窗口函数"]);
        assert_eq!(spellings("有序集聚合"), ["有序集聚合", "有序集聚集"]);
        assert_eq!(spellings("访问文件"), ["访问文件", "存取文件"]);
        assert_eq!(spellings("服务器监视"), ["服务器监视", "服务器监控"]);
        // Alter, in the titles of a manual's ALTER commands and in questions.
        assert_eq!(spellings("修改表"), ["修改表", "更改表"]);
        assert_eq!(
            spellings("串行化隔离等级"),
            ["串行化隔离等级", "序列化隔离等级", "串行化隔离级别", "序列化隔离级别"]
        );
        // Traditional characters are searched as simplified ones too.
        assert_eq!(spellings("資料庫"), ["資料庫", "资料库"]);
        assert_eq!(spellings("預設密碼"), ["預設密碼", "预设密码", "预设口令"]);
        assert_eq!(spellings("vacuum"), ["vacuum"]);
        assert_eq!(spellings("索引"), ["索引"]);
    }

    #[test]
    fn umlauts_typed_as_two_letters_are_tried_as_the_letter_they_fold_to() {
        assert_eq!(umlaut_forms("schluessel"), ["schlussel"]);
        assert_eq!(umlaut_forms("paketgroesse"), ["paketgrosse"]);
        // Each choice, those changing most first: a pair may be real.
        assert_eq!(
            umlaut_forms("steuerschluessel"),
            ["steurschlussel", "steurschluessel", "steuerschlussel"]
        );
        assert_eq!(umlaut_forms("vacuum"), Vec::<String>::new());
        assert_eq!(umlaut_forms("更改表"), Vec::<String>::new());
        assert_eq!(umlaut_forms("aeaeaeae").len(), (1 << MAX_UMLAUT_SPOTS) - 1);
    }

    #[test]
    fn a_short_form_stands_for_its_words() {
        assert_eq!(long_form("stderr"), Some("standard error"));
        assert_eq!(long_form("regexp"), Some("regular expression"));
        assert_eq!(long_form("standard"), None);
        // Short forms are lower case, as folded query words are.
        assert!(SHORT_FORMS.iter().all(|(s, l)| *s == s.to_lowercase() && *l == l.to_lowercase()));
    }

    #[test]
    fn many_such_words_give_a_bounded_number_of_spellings() {
        let word = "默认密码创建删除执行设置";
        let all = spellings(word);
        assert_eq!(all.len(), MAX_SPELLINGS);
        assert_eq!(all[0], word);
        assert!(all.iter().all(|s| s.chars().count() == word.chars().count()));
    }

    #[test]
    fn every_spelling_of_a_group_has_as_many_chars() {
        for group in GROUPS {
            let len = group[0].chars().count();
            assert!(group.iter().all(|s| s.chars().count() == len), "{group:?}");
            assert!(group.iter().all(|s| s.chars().all(is_cjk)), "{group:?}");
        }
    }
}
